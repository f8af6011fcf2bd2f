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

/**
 * The types a TS/JS or Java declaration says it implements, by their last names: `class A extends B
 * implements I, J<T>` → I, J; an object literal declared with a type, `const json: ContentTypeHandler = {`
 * → ContentTypeHandler. Empty for anything else. Kept apart from basesOf: an interface or type alias
 * gives its implementations no method to inherit, only its name.
 */
export function implementedBy(signature: string): string[] {
  const clause = /\bimplements\s+([^{]+?)\s*\{?\s*$/.exec(signature);
  if (/^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\b/.test(signature) && clause) {
    return (clause[1] as string)
      .replace(/<[^<>]*(?:<[^<>]*>[^<>]*)*>/g, "")
      .split(",")
      .map((part) => /([A-Za-z_$][\w$]*)\s*$/.exec(part.trim())?.[1])
      .filter((name): name is string => name !== undefined);
  }
  const typed = /^(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*:\s*([\w$.]+)(?:<.*>)?\s*=\s*\{/.exec(signature);
  const type = typed?.[1]?.split(".").at(-1);
  return type ? [type] : [];
}

/** The scope's class hierarchy by last names, from each class's declared bases (basesOf). */
export class ClassHierarchy {
  /** A base class's last name → the last names of the scope's classes that name it as a base. */
  private readonly derived = new Map<string, string[]>();
  /** A class's last name → the last names of the bases it names. */
  private readonly bases = new Map<string, string[]>();
  /** A type's last name → the last names of the classes and typed objects declared to implement it. */
  private readonly implementers = new Map<string, string[]>();
  private readonly memo = new Map<string, ReadonlySet<string>>();

  /** Records a class and the bases its declaration names. */
  add(className: string, bases: readonly string[]): void {
    for (const base of bases) this.derived.set(base, [...(this.derived.get(base) ?? []), className]);
    this.bases.set(className, [...(this.bases.get(className) ?? []), ...bases]);
  }

  /** Records a class or typed object and the types its declaration says it implements (implementedBy). */
  addImplementation(name: string, types: readonly string[]): void {
    for (const type of types) this.implementers.set(type, [...(this.implementers.get(type) ?? []), name]);
  }

  /** The classes and objects declared to implement `type`, and the classes deriving from those classes. */
  implementationsOf(type: string): ReadonlySet<string> {
    const direct = this.implementers.get(type) ?? [];
    return new Set([...direct, ...direct.flatMap((name) => [...this.subclassesOf(name)])]);
  }

  /** Each class naming bases, with them, by last names, sorted: what the scope's facts report (TOPOLOGY.md, `class_bases`). */
  declared(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const name of [...this.bases.keys()].sort()) {
      const bases = [...new Set(this.bases.get(name))];
      if (bases.length > 0) out[name] = bases;
    }
    return out;
  }

  /** The bases a class names in its declaration (empty when none). */
  basesOf(className: string): readonly string[] {
    return this.bases.get(className) ?? [];
  }

  /** The scope's classes deriving from `className`, directly or through others. */
  subclassesOf(className: string): ReadonlySet<string> {
    return this.closure("sub", className, this.derived);
  }

  /** The classes `className` derives from, directly or through others. */
  superclassesOf(className: string): ReadonlySet<string> {
    return this.closure("super", className, this.bases);
  }

  private closure(kind: string, className: string, links: ReadonlyMap<string, readonly string[]>): ReadonlySet<string> {
    const key = `${kind}\0${className}`;
    let out = this.memo.get(key);
    if (out) return out;
    const found = new Set<string>();
    const queue = [className];
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      for (const next of links.get(name) ?? []) {
        if (next === className || found.has(next)) continue;
        found.add(next);
        queue.push(next);
      }
    }
    this.memo.set(key, (out = found));
    return out;
  }
}
