// What parsing one file yields: pure data, computed from the path and content alone.
import type { ModuleMember } from "./import-bindings.js";
import type { CallSite, CodeSymbol, FieldBinding, ImportEdge, Language } from "../types.js";

/** A call site with what cross-scope analysis needs to know about its callee. */
export interface ParsedCall extends CallSite {
  /** The callee is a bare identifier, not a member, pointer or qualified expression. */
  plain: boolean;
  /** The callee is a parameter or local function pointer of the enclosing function. */
  local: boolean;
  /** TS/JS/Python: the module spec a plain callee was imported from. */
  imported_from?: string;
  /** Python: a call through an imported module (`json.dumps(…)` after `import json`): that module's spec and the member called. */
  module_member?: ModuleMember;
  /** TS/JS/Python: a plain callee its file's import renamed: the name the module defines, and the renaming line. */
  renamed?: { name: string; line: number };
}

/** An include/import edge as parsed; `system` marks `#include <...>`. */
export interface ParsedImport extends ImportEdge {
  system: boolean;
  /** Python `from m import a, b`: the imported names (a name may itself be a submodule). */
  names?: string[];
}

/** A use of a risky API or pattern (O2). */
export interface RiskFinding {
  api: string;
  reason: string;
  severity: "high" | "medium" | "low";
  line_start: number;
  line_end: number;
  caller: string | null;
}

/** An assertion, BUG_ON/WARN_ON or static assertion (O6). */
export interface AssertionSite {
  kind: string;
  text: string;
  line_start: number;
  line_end: number;
  caller: string | null;
}

/** A comment passage stating an invariant or bound (O6), or a module's own description (O4). */
export interface NoteSpan {
  text: string;
  line_start: number;
  line_end: number;
}

/** A passage of a text file, cut at headings or paragraph breaks. */
export interface TextChunk {
  line_start: number;
  line_end: number;
  heading?: string;
}

export interface ParsedFile {
  path: string;
  language: Language;
  symbols: CodeSymbol[];
  imports: ParsedImport[];
  calls: ParsedCall[];
  /** C: names stored into struct fields (`.ndo_start_xmit = veth_xmit`), how functions are registered to be called through them. */
  bindings: FieldBinding[];
  risks: RiskFinding[];
  assertions: AssertionSite[];
  bounds: NoteSpan[];
  module_doc: NoteSpan | null;
  /** Text files only. */
  chunks: TextChunk[];
  has_syntax_errors: boolean;
}

export function emptyParsedFile(path: string, language: Language): ParsedFile {
  return {
    path,
    language,
    symbols: [],
    imports: [],
    calls: [],
    bindings: [],
    risks: [],
    assertions: [],
    bounds: [],
    module_doc: null,
    chunks: [],
    has_syntax_errors: false,
  };
}
