// The manifest of a stored PGC: what was indexed (per-file hashes, source revision), what came out
// (overlay stats, calibration report) and the checksum of every data file. Written last.
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

export const MANIFEST_FILE = "manifest.json";
export const MANIFEST_FORMAT = "lattice-mesh/pgc";
/** Bump when the stored data's shape or the extraction rules change: old stores are rebuilt. */
/** 2: standard-library imports the root itself holds became cross-scope references. */
/** 3: module-level TS/JS values (`export const ZodString = …`) became symbols. */
/** 4: calls through another scope's module (Python `json.dumps(…)` after `import json`, JS `core.f(…)` after `import * as core`) became cross-scope calls, and calls name their module. */
/** 5: methods of a module-level TS/JS object literal (`export const intervalProvider = { setInterval() {} }`) became symbols. */
/** 6: C functions handed by name to a capitals macro (`INDIRECT_CALL_2(…, tcp_v4_rcv, …)`, `NF_HOOK(…, ip_rcv_finish)`) became calls. */
/** 7: calls in the bodies of C function-like macros became calls of the macro. */
/** 8: method calls name the class of their object when the calling function says it (`g = BytesGenerator(fp); g.flatten()`). */
/** 9: functions JS/TS assigns to members (`Foo.prototype.m = function`, `this.m = …` in a constructor, `inst.m = (…) => …` in a builder's body) became methods, and calls through an import name the scope's file it resolves to. */
/** 10: a method call through a field of the caller's own object names the field's class (`self.parser = FeedParser()` … `self.parser.feed()`). */
/** 11: C names stored into struct fields (`.ndo_start_xmit = veth_xmit`, `po->prot_hook.func = packet_rcv`) are kept as field bindings, so calls through a field resolve to the functions bound to it. */
/** 12: TS/JS import edges say when they re-export (`export … from "m"`, with the names they rename), from which the manager learns a package's public surface; a member call on a named import (`util.extend(…)` after `import { util } from "../core/index.js"`) is a call through that module. */
/** 13: extractions in shards, import resolutions kept per file, the index stores per-field counts (sorted terms) so a rebuild patches it. */
/** 14: a field of the caller's own object names its class from TS private fields (`#client: QueryClient`), constructor parameter properties, typed parameters assigned to it, and Python class-level and annotated fields. */
/** 15: a C function defined by a file-level capitals macro and a block (`SYSCALL_DEFINE3(write, …) { … }`) is a function named by the macro's first argument. */
/** 16: such a macro function is found in `#ifdef` blocks at file level too, and with one argument (`SYSCALL_DEFINE0(fork) { … }`, which the grammar reads as a function with the macro for its type). */
/** 17: a method call through what a function of the scope returns (`self.get_signing_serializer(app).dumps(…)`, `conn = make_conn(); conn.send()`) records that function, and Python/TS functions without an annotation record the one class their `return`s construct. */
/** 18: a method call through a module-level variable the file builds (`_default_encoder = JSONEncoder(…)`) names its class; a local of the calling function hides it. */
/** 19: a Python definition in the `except` of a `try` importing the same name is a stand-in (`fallback_of`): calls of the name leave the scope by the import. */
/** 20: a TS/JS named function expression bound to a variable keeps its own name too (`also_named`). */
/** 21: a class name may begin with `$` or `_` (`$ZodRegistry`, `_Helper`): a field or variable typed so names its class. */
/** 22: a C function of no parameters with attribute macros before its name (`asmlinkage __visible void __sched schedule(void)`) is a function; the grammar had read its name as a type. */
/** 23: the English function words the index drops include those NLTK's list has and it lacked (`against`, `during`, `because`, the reflexive pronouns). */
/** 24: the tokenizer reads an irregular verb's past forms as its base (`woken` → wake, `thrown` → throw, `written` → write), in documents and questions alike. */
/** 25: a TS/JS class field holding a function (`insert = (rows) => { … }`) is a method of its class. */
/** 26: a Python method with nothing to run (it only raises `NotImplementedError`, or an `@abstractmethod` with no body) is `abstract`; a call of it through `self` is an exit as well. */
/** 27: the tokenizer reads "freed" as free (the stemmer keeps it whole), in documents and questions alike. */
/** 31: a Python call of a method by a built name (`getattr(self, "do_" + command)()`, or a name assigned it) records the name's literal prefix and its line (`dispatch`). */
/** 32: a Python/TS/JS call in a `raise` / `throw` statement says so (`raises`): a path search follows it only for a question about errors. */
/** 33: a plain Python/TS/JS call of a parameter or variable of the calling function calls no function of that name (`local`), and `this.#m()` calls the private method `#m`. */
/** 34: a call in an `except` clause or `catch` block is on the error path too (`error_path`, which replaces `raises`). */
/** 35: an import of a foreign package (PGC.md, "foreign modules": Python whose top package the root does not hold, TS/JS a dependency of the nearest package.json) is no call of the code base, as a standard module's is. */
/** 36: a parameter's annotation is read through optionality and unions (`hash: Optional[str] = None` names no class `Optional`; `link: Optional[Link]` names Link). */
/** 37: the functions of an object literal a TS/JS function returns (`coreModule = () => ({ init(…) { … } })`, `return { start: () => … }`) are methods of that function, and a module-level object's `key: () => …` is a method as `key() {…}` is. */
/** 38: a call's line is the line naming its callee (a member call's name: `Load.for_existing_path(…\n).lazyload(rev)` on its last line), not its first line. */
/** 39: TS/JS `f.call(thisArg, …)` and `f.apply(thisArg, args)` are calls of `f`, not of a method `call` or `apply`; a member call on a lower-case default import is a call into that module. */
/** 40: a TS/JS named function expression outside any function that no declarator, key or assignment binds (`export default ok && function httpAdapter(…) { … }`) is a function of its name. */
/** 41: a number of three digits or more is a term (`8250`, `serial8250` → serial, 8250), in documents and questions alike. */
/** 42: a Python/TS name declared with a class keeps it when later assigned another (`connector: Optional[BaseConnector] = None`, then `connector = TCPConnector()`). */
/** 43: a Python submodule a call goes through (`helpers.parse_mimetype(…)` after `from . import hdrs, helpers`) is linked as an import of its own, so the call leaves the scope where that module is another scope's. */
/** 44: a Python/TS/JS field of the caller's object given several classes keeps them all (`receiver_classes`); the call graph takes the one its scope defines, or the first when it defines none. */
/** 45: a long function or method keeps the compound identifiers it uses past its indexed body (`uses`, parse/body-uses.ts). */
/** 46: a plain name imported from another scope's module leaves the scope even when a class of the scope has a method of that name (parse/cross-scope-calls.ts). */
/** 47: a TS/JS property read through an object of known class (`this.extensionManager.nodeViews`) is a call of that class's getter (CallSite.read). */
/** 48: a TS/JS class method with an empty body (comments aside) is a hook for subclasses, marked `abstract`: a call of it through `this` is also an exit. */
/** 49: a TS/JS function assigned to a member at module level or in a function's body (`exports.f = …`, `res.send = function …`, `column.toggleSorting = (…) => …`) and the functions of an object literal a function binds to a variable are functions of their own. */
/** 50: a word split only where letters follow its digits (`i2c` of `i2c_transfer`, `l2cap`, `k8s`) is also a term whole (retrieval/tokenizer.ts). */
/** 52: a Python `with X(…) as name:` gives `name` the class `X` for the calls through it (parse/receiver-class.ts). */
/** 53: a choice's branches give a name their one constructed class (`session or Session()`, `o.client ?? new Client()`; parse/value-class.ts). */
/** 54: a TS/JS module-level value that is another definition under a new name (`export const cors = internal.cors`) is a node calling it (CodeSymbol.alias_of). */
/** 55: a Python `self.m(…)` whose class assigns `self.m = …` calls the value the object holds (CallSite.held): no other scope's method `m`. */
/** 56: so does a TS/JS `this.m(…)` whose class assigns `this.m = …` a value that is not a function written there. */
/** 57: a Python call of a local name last assigned an attribute (`meth = statement._execute_on_connection` … `meth(…)`) is a call of that method, at the assignment's line (parse/python-dispatch.ts). */
/** 58: a name a comprehension's loop or an unpacking binds (`[receiver(…) for receiver in …]`, `for sender, receiver in …`) is a local value, whose call is no call of a function of that name (parse/local-values.ts). */
/** 59: a C function defined where a configuration option is off (`#else` of `#ifdef CONFIG_PM`) is a stand-in (`config_stub`): calls of its name go to the definition elsewhere (parse/c-config-stub.ts). */
/** 60: a Python variable first set to `None` has the class its other assignments give (`conn = None` … `conn = Connection(…)`; parse/receiver-class.ts). */
/** 61: a C definition after a format-attribute macro (`static __printf(3, 0) int kobject_add_varg(…)`) is parsed with the macro blanked (parse/c-attribute-macros.ts). */
/** 62: C deferred work — a function stored into a work item, timer or tasklet by its address (`INIT_WORK(&x->work, fn)`) is bound to that field, not called; queueing the item (`schedule_work(&x->work)`) calls through it (parse/c-deferred-work.ts). */
/** 63: Python — a call of an object the code built from one class is a call of its `__call__`, cited with the line building it (parse/instance-calls.ts). */
/** 64: Python, TS/JS — a function registered under a string key is bound to the event's pseudo-field, and emitting the key calls through it (parse/event-registry.ts). */
export const STORE_VERSION = 64;

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  version: z.number().int(),
  scope: z.string(),
  root: z.string(),
  scope_paths: z.array(z.string()),
  /** git HEAD of the root when it is a repository, else null. */
  source_revision: z.string().nullable(),
  /** Short content hash over every indexed file and the source revision: the index revision. */
  index_revision: z.string(),
  files: z.record(z.string(), z.string()),
  stats: z.record(z.string(), z.unknown()),
  calibration: z.record(z.string(), z.unknown()),
  built_at: z.string(),
  build_ms: z.number(),
  blobs: z.record(z.string(), z.string()),
});
export type StoreManifest = z.infer<typeof manifestSchema>;

export async function readManifest(dir: string): Promise<StoreManifest | null> {
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8")));
    return parsed.success && parsed.data.version === STORE_VERSION ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function writeManifest(dir: string, manifest: StoreManifest): Promise<void> {
  const temp = join(dir, `.${MANIFEST_FILE}.${process.pid}.tmp`);
  await writeFile(temp, JSON.stringify(manifest, null, 2));
  await rename(temp, join(dir, MANIFEST_FILE));
}
