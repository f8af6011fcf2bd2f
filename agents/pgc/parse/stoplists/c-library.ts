// C library functions, compiler builtins and keyword-like names: calls to them never leave a scope.

const WORDS = (text: string): string[] => text.split(/\s+/).filter((word) => word !== "");

/** ISO C and common POSIX functions; a scope calling them depends on libc, not on another scope. */
export const C_LIBRARY_FUNCTIONS: ReadonlySet<string> = new Set(
  WORDS(`
    memcpy memmove memset memcmp memchr memrchr strlen strnlen strcpy strncpy strlcpy strcat strncat strlcat
    strcmp strncmp strcasecmp strncasecmp strchr strrchr strstr strtok strtok_r strdup strndup strspn strcspn
    strpbrk strerror strcoll strxfrm stpcpy bzero bcopy
    printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf dprintf asprintf vasprintf
    scanf fscanf sscanf vscanf vsscanf puts fputs putc fputc putchar gets fgets getc fgetc getchar ungetc
    fopen fdopen freopen fclose fflush fread fwrite fseek ftell rewind fgetpos fsetpos feof ferror clearerr
    perror remove rename tmpfile tmpnam setvbuf setbuf fileno popen pclose
    malloc calloc realloc reallocarray free aligned_alloc posix_memalign alloca
    abort exit _exit atexit quick_exit getenv setenv unsetenv system
    atoi atol atoll atof strtol strtoul strtoll strtoull strtod strtof strtold
    abs labs llabs div ldiv qsort bsearch rand srand random srandom
    isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace isupper isxdigit
    tolower toupper
    sqrt pow exp log log2 log10 sin cos tan floor ceil round fabs fmod fmin fmax
    time clock difftime mktime localtime gmtime strftime gettimeofday clock_gettime nanosleep sleep usleep
    open close read write lseek pread pwrite ioctl fcntl mmap munmap mprotect dup dup2 pipe poll select
    fork execve execvp waitpid kill signal sigaction raise getpid getppid
    pthread_create pthread_join pthread_mutex_lock pthread_mutex_unlock pthread_cond_wait pthread_cond_signal
    setjmp longjmp assert errno
  `),
);

/** Operators and macros that look like calls in the syntax tree. */
export const C_KEYWORD_LIKE: ReadonlySet<string> = new Set(
  WORDS(`
    sizeof alignof _Alignof offsetof typeof __typeof__ __alignof__ defined
    va_start va_end va_arg va_copy __attribute__ __asm__ asm __extension__
    static_assert _Static_assert __builtin_expect
  `),
);

/** True when a call to `name` is to the C library or the compiler, not to code of any scope. */
export function isCLibraryName(name: string): boolean {
  return C_LIBRARY_FUNCTIONS.has(name) || C_KEYWORD_LIKE.has(name) || name.startsWith("__builtin_");
}
