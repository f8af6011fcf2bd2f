// The methods a language's own values have — Python's str, bytes, list, dict, set and file objects; JavaScript's Array,
// String, Map, Set, Promise and Object — by name. A call `x.get(…)` through an object of unknown class is,
// by the language, as likely a dict's or a Map's as any class of the code base's, so the call graph makes
// no guess for these names (resolve-callee.ts, rule 4). Only names the code base's classes also commonly
// define are listed: a built-in method no class of the code shares never resolves anyway.
import { languageForPath } from "../scan/detect-language.js";

const PYTHON = new Set([
  // dict
  "get", "pop", "popitem", "items", "keys", "values", "update", "setdefault", "copy", "clear", "fromkeys",
  // list, set
  "append", "extend", "insert", "remove", "index", "count", "sort", "reverse", "add", "discard", "union", "intersection", "difference",
  // str, bytes
  "encode", "decode", "split", "rsplit", "splitlines", "join", "strip", "lstrip", "rstrip", "replace", "format", "startswith", "endswith",
  "lower", "upper", "find", "rfind", "partition", "rpartition", "translate", "title", "capitalize", "center", "ljust", "rjust", "zfill", "casefold", "expandtabs", "hex",
  // file objects (`open(…)`, io's streams)
  "read", "readline", "readlines", "write", "writelines", "flush", "seek", "tell", "close",
]);

const JAVASCRIPT = new Set([
  // Array
  "push", "pop", "shift", "unshift", "slice", "splice", "concat", "map", "filter", "reduce", "forEach", "find", "findIndex", "some", "every",
  "includes", "indexOf", "join", "sort", "reverse", "flat", "flatMap", "fill", "at",
  // Map, Set
  "get", "set", "has", "delete", "clear", "add", "keys", "values", "entries",
  // String
  "split", "trim", "replace", "startsWith", "endsWith", "toLowerCase", "toUpperCase", "padStart", "padEnd", "match", "charAt",
  // Promise, Object, Function
  "then", "catch", "finally", "toString", "valueOf", "hasOwnProperty", "call", "apply", "bind",
]);

/**
 * A receiver that is a value the language builds — a literal (`"…".join`, `[…].map`, `{…}.get`, an f-string)
 * or a call of a built-in type (`str(x).translate`, `list(x).sort`, `String(x).trim`, `Array.from(x).map`,
 * `Object.keys(x).forEach`) — whatever its method's name.
 */
const PYTHON_VALUE = /^(?:[rbuf]{0,2}["']|\[|\{|\(\s*\)|(?:str|bytes|bytearray|list|dict|set|frozenset|tuple|repr|format|sorted|reversed)\()/i;
const JAVASCRIPT_VALUE = /^(?:["'`]|\[|\{|(?:String|Number|Array\.from|Array\.of|Object\.(?:keys|values|entries|assign)|JSON\.stringify|Promise\.(?:all|allSettled|race|resolve|reject))\()/;

/** Whether the receiver of a call is a value the language builds (PYTHON_VALUE, JAVASCRIPT_VALUE): its methods are the language's own. */
export function isBuiltinValue(receiver: string, filePath: string): boolean {
  const language = languageForPath(filePath);
  if (language === "python") return PYTHON_VALUE.test(receiver);
  if (language === "typescript" || language === "tsx" || language === "javascript") return JAVASCRIPT_VALUE.test(receiver);
  return false;
}

/** Whether `name` is a method of the built-in values of the language the file is written in. */
export function isBuiltinMethod(name: string, filePath: string): boolean {
  const language = languageForPath(filePath);
  if (language === "python") return PYTHON.has(name);
  if (language === "typescript" || language === "tsx" || language === "javascript") return JAVASCRIPT.has(name);
  return false;
}
