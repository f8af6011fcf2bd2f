// A class's bases as its declaration names them, in the languages the call graph reads: how it learns the
// scope's class hierarchy (the overrides a `self.m()` may run, the methods a subclass inherits).

/**
 * A Python class head, as the extraction keeps it: on one line, with any comments before the body (`class
 * FullConstructor(SafeConstructor): # 'extend' is blacklisted …`). Its group is the bases' list (none for
 * `class Parser:`), which ends at the last `)` before the comments.
 */
const PYTHON_HEAD = /^class\s+[\w$]+\s*(?:\(([^#]*)\))?\s*:\s*(?:#.*)?$/;

/**
 * The base classes a class declaration names, by their last names: Python `class A(b.B, C, metaclass=M)`
 * → B, C; TS, JS and Java `class A<T> extends B<T> implements I` → B; C++ `class A : public B, C` → B, C.
 * A Python head's comments name no base (`class Parser: # … a straightforward task, we` has none).
 */
export function basesOf(signature: string): string[] {
  const names = (list: string) =>
    list
      .replace(/<[^<>]*(?:<[^<>]*>[^<>]*)*>|\[[^\]]*\]/g, "")
      .split(",")
      .map((part) => part.trim().replace(/^(?:public|protected|private|virtual)\s+/g, "").replace(/^(?:public|protected|private|virtual)\s+/g, ""))
      .filter((part) => !part.includes("="))
      .map((part) => /([A-Za-z_$][\w$]*)\s*$/.exec(part)?.[1])
      .filter((name): name is string => name !== undefined && name !== "object");
  const python = PYTHON_HEAD.exec(signature) ?? /^class\s+[\w$]+\s*\((.*)\)\s*$/.exec(signature);
  if (python) return python[1] === undefined ? [] : names(python[1]);
  const extended = /\bextends\s+([\w$.]+)/.exec(signature);
  if (extended) return names(extended[1] as string);
  const cpp = /^(?:template\s*<.*>\s*)?(?:class|struct)\s+[\w:]+(?:\s+final)?\s*:\s*([^{]+)/.exec(signature);
  return cpp ? names(cpp[1] as string) : [];
}
