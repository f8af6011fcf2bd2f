// Shared shapes of the PGC (grounded context pool): what extraction produces and retrieval indexes.
// Line numbers are 1-based and inclusive everywhere; paths are POSIX, relative to the scope root.

export const OVERLAYS = ["O1", "O2", "O3", "O4", "O5", "O6", "O7"] as const;
export type Overlay = (typeof OVERLAYS)[number];

export type Language = "c" | "cpp" | "typescript" | "tsx" | "javascript" | "python" | "text";

export type SymbolKind =
  | "function"
  | "method"
  | "class"
  | "struct"
  | "union"
  | "enum"
  | "typedef"
  | "interface"
  | "type"
  | "macro"
  | "variable";

/** A named definition found by the parser. */
export interface CodeSymbol {
  name: string;
  kind: SymbolKind;
  /** The declaration line(s) up to the body, whitespace-collapsed, at most ~300 chars. */
  signature: string;
  /** The doc comment attached to the definition, comment markers stripped ("" when none). */
  doc: string;
  file_path: string;
  line_start: number;
  line_end: number;
  /** True for a function defined (not only declared) in a header, e.g. `static inline`. */
  in_header?: boolean;
  /**
   * C: the file uses the function as a value, not only calls it — stores it into a struct field, passes it
   * as an argument (`request_irq(irq, foo_irq, …)`, `EXPORT_SYMBOL(foo)`, `module_init(foo_init)`): code
   * elsewhere, or the kernel, calls it through a pointer; a way into the code from outside (parse/c-extractor.ts).
   */
  address_taken?: true;
  /**
   * C: defined where a configuration option is off (the `#else` of `#ifdef CONFIG_PM`, `#ifndef CONFIG_PM`),
   * the other side of the condition naming it too: the stand-in of a build without it. It does not hide the
   * name's definition elsewhere from a call, is called only where nothing else of the name is, and is never
   * where a question starts (parse/c-config-stub.ts).
   */
  config_stub?: true;
  /**
   * Functions and methods longer than their indexed body: the compound identifiers (snake_case, CONST_CASE,
   * camelCase) the lines past it use, in order, each once (parse/body-uses.ts).
   */
  uses?: string[];
  /** Functions and function-like macros: number of parameters (`self`/`cls` not counted). */
  params?: number;
  /** Functions: the declared return type as written ("void *", "Promise<void>"), when there is one. */
  returns?: string;
  /** The enclosing class or namespace, e.g. "Widget" for a method, "zmq::detail" in C++. */
  container?: string;
  /**
   * TS/JS: the own name of a named function expression bound to `name` (`const inputMiddleware = function
   * inputValidatorMiddleware(…)`), which stack traces and readers use: matched as the name is.
   */
  also_named?: string;
  /**
   * TS/JS: a module-level value that is another definition under this name, as written (`internal.cors` of
   * `export const cors: (…) => … = internal.cors`): its line calls that definition (parse/ts-extractor.ts).
   */
  alias_of?: string;
  /**
   * Python: defined in the `except` clause of a `try` that imports the same name from this module (an
   * optional dependency's stand-in). Where that import resolves, calls of the name are the import's.
   */
  fallback_of?: string;
  /**
   * Python: a method with nothing to run — its body only raises `NotImplementedError`, or it is an
   * `@abstractmethod` whose body is only `pass`, `...` or a docstring. A subclass, perhaps in another scope,
   * implements it.
   */
  abstract?: true;
  /** Structs, unions, classes, interfaces, enums: number of fields, members or enumerators. */
  members?: number;
  /** Lines of the doc comment or docstring, when `doc` is not empty. */
  doc_line_start?: number;
  doc_line_end?: number;
}

/** One scanned file of a scope. */
export interface FileRecord {
  path: string;
  language: Language;
  /** Hex sha256 of the raw bytes, for incremental rebuilds. */
  sha256: string;
  lines: number;
  bytes: number;
}

/**
 * A reference that leaves the scope: a call to a name defined nowhere in the scope, or an include/import
 * that resolves to no file of the scope. The scope topology is built from these.
 */
export interface CrossScopeReference {
  kind: "call" | "include" | "import";
  /** Call: the callee name. Include: the path as written. Import: the module (relative ones root-relative). */
  target: string;
  from_file: string;
  line: number;
  /** Call: the enclosing function, if any. */
  caller?: string | null;
  /** Include/import: the spec exactly as written in the source. */
  spec?: string;
  /** Include/import: the root-relative file it resolves to outside the scope, when one exists under the root. */
  resolved_outside?: string;
  /** Call: the module the callee came from, as the import spelled it (`json` for `json.dumps(…)` or `from json import dumps`). */
  module?: string;
}

/** An include or import edge: `target` is the spec as written ("linux/dma.h", "../mm/x", "os.path"). */
export interface ImportEdge {
  kind: "include" | "import";
  target: string;
  file_path: string;
  line: number;
  /** The target resolved to a file inside this scope, when it does resolve. */
  resolved_path?: string;
  /** TS/JS `export … from "m"`: the file re-exports what `m` exports (how a package's entry module builds its public API). */
  reexport?: boolean;
  /** A re-export that names what it passes on (`export { _minLength as minLength } from "m"`); absent for `export * from "m"`. */
  reexported?: { exported: string; imported: string; line: number }[];
}

/** A call site: `callee` is the called name as written; `caller` the enclosing function, if any. */
export interface CallSite {
  callee: string;
  caller: string | null;
  file_path: string;
  line: number;
  /** Python, TS/JS: the class of the object a method call goes through, when the calling function says it (`g = BytesGenerator(fp); g.flatten()`). */
  receiver_class?: string;
  /**
   * Python, TS/JS: the classes a field of the caller's object is given in several places (`self._pool =
   * AsyncConnectionPool(…)`, or `AsyncHTTPProxy(…)` behind a proxy), in source order, when the calling
   * function says no more: the call graph takes the one its scope defines, or the first when it defines none.
   */
  receiver_classes?: string[];
  /**
   * Python, TS/JS: the function whose result the object is, when the caller says so and gives no class
   * (`self.get_signing_serializer(app).dumps(…)`, `conn = make_conn(); conn.send()`): the call graph takes
   * the object's class from that function's return type.
   */
  receiver_call?: string;
  /** TS/JS/Python: the scope's file a call through an imported module or name resolves to (`src/v4/classic/parse.ts` for `parse.parse(…)` after `import * as parse from "./parse.js"`). */
  module_file?: string;
  /**
   * TS/JS/Python: the call goes through a module of the language's standard library that the root does not
   * hold (`html.escape(…)` after `import html`, `path.join(…)` after `import * as path from "node:path"`), or
   * calls a name imported from one (`dedent(…)` after `from textwrap import dedent`), or likewise a foreign
   * package's module (`yaml.load(…)`, PGC.md "foreign modules"): no function of the code base is its
   * callee, here or in another scope.
   */
  standard_module?: true;
  /**
   * TS/JS/Python: the callee is a name the file's import renamed (`_AddressList(…)` after `from email._parseaddr
   * import AddressList as _AddressList`): the name its module defines, and the line of the import renaming it.
   */
  renamed?: { name: string; line: number };
  /**
   * Python: the call runs a method of the caller's object named by a literal prefix and a part known at run
   * time (`getattr(self, "do_" + command)()`, or a name assigned it): the prefix, and the line of its
   * string literal (where the code names what it may call). The call graph links it as a call through the
   * pseudo-field `prefix*` (docs/PGC.md, rule 9).
   */
  dispatch?: { prefix: string; line: number };
  /**
   * Python: `self.m(…)` where the caller's class assigns `self.m = …`: a call of the value the object holds
   * (a callback, a function chosen at run time), a method only if the class's own family defines one.
   */
  held?: true;
  /**
   * Python, TS/JS: the call is on an error path — part of a `raise` / `throw` statement (`raise
   * SMTPNotSupportedError(…)`, `throw new TRPCError({ … })`: it builds what is thrown) or in an `except` clause
   * or `catch` block of its function (it handles what was thrown). A path search follows it only for a
   * question about errors (docs/PGC.md, rule 10).
   */
  error_path?: true;
  /**
   * TS/JS: no call but a read of a property through an object whose class the calling function says
   * (`this.extensionManager.nodeViews`, where `this.extensionManager = new ExtensionManager(…)`): it runs the
   * class's getter of that name (`get nodeViews()`), when the scope defines one; otherwise it is nothing
   * (a plain field's value), no exit (docs/PGC.md, "Property reads are calls of their getter").
   */
  read?: true;
}

/**
 * C: a name stored into a struct field at `line` (`.ndo_start_xmit = veth_xmit,` in an initializer,
 * `po->prot_hook.func = packet_rcv;` in a body). When `target` is a function, a call through that field
 * (`ops->ndo_start_xmit(skb, dev)`) may call it.
 */
export interface FieldBinding {
  field: string;
  target: string;
  file_path: string;
  line: number;
}

/** One retrievable unit. Every document cites real lines of a real file inside the scope. */
export interface IndexDoc {
  /** Stable within one index build, e.g. "O1:drivers/net/e1000.c:120-160". */
  id: string;
  overlay: Overlay;
  /** Sub-kind within the overlay, e.g. "function", "risky_call", "readme", "build_target". */
  section: string;
  file_path: string;
  line_start: number;
  line_end: number;
  /** The symbol this document is about, when it is about one. */
  symbol?: string;
  /** Searchable fields; retrieval boosts them differently (name > signature > doc > body > path). */
  fields: {
    name?: string;
    signature?: string;
    doc?: string;
    body?: string;
    path: string;
  };
  /** One-line human summary shown as the source text (the seed's `text`). */
  text: string;
}
