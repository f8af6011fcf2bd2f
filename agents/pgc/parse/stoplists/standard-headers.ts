// Headers of the C and C++ standard libraries and POSIX: an include of one never leaves to another scope.

const WORDS = (text: string): string[] => text.split(/\s+/).filter((word) => word !== "");

export const STANDARD_HEADERS: ReadonlySet<string> = new Set(
  WORDS(`
    assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h
    signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h
    string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h
    unistd.h fcntl.h dirent.h dlfcn.h poll.h pthread.h sched.h semaphore.h strings.h syslog.h termios.h
    netdb.h grp.h pwd.h glob.h regex.h spawn.h
    sys/types.h sys/stat.h sys/time.h sys/wait.h sys/socket.h sys/mman.h sys/ioctl.h sys/select.h
    sys/uio.h sys/un.h sys/resource.h sys/param.h sys/epoll.h sys/eventfd.h
    netinet/in.h netinet/tcp.h arpa/inet.h
    algorithm any array atomic bitset chrono cmath condition_variable cstddef cstdint cstdio cstdlib cstring
    deque exception filesystem functional future iomanip ios iosfwd iostream istream iterator limits list map
    memory mutex new numeric optional ostream queue random ratio regex set shared_mutex sstream stack
    stdexcept string string_view system_error thread tuple type_traits typeinfo unordered_map unordered_set
    utility variant vector span cassert cctype cerrno cfloat climits clocale csignal ctime cwchar
  `),
);
