// Parses one file into a ParsedFile: a pure function of its path and content.
import type { Node } from "web-tree-sitter";
import { languageForPath } from "../scan/detect-language.js";
import type { Language } from "../types.js";
import { compoundIdentifiers, INDEXED_BODY_LINES } from "./body-uses.js";
import { withoutAttributeMacros } from "./c-attribute-macros.js";
import { extractCFamily } from "./c-extractor.js";
import { ExtractContext } from "./extract-context.js";
import { type CodeLanguage, isCodeLanguage, loadGrammar, type LoadedGrammar } from "./grammars.js";
import { emptyParsedFile, type ParsedFile } from "./parsed-file.js";
import { extractPython } from "./python-extractor.js";
import { chunkText } from "./text-chunks.js";
import { extractTypeScriptFamily } from "./ts-extractor.js";

export interface ParseInput {
  /** Scope-relative POSIX path; it names the file in every result and decides the language if none is given. */
  path: string;
  content: string;
  language?: Language;
}

type Extractor = (grammar: LoadedGrammar, root: Node, ctx: ExtractContext) => void;

const EXTRACTORS: Readonly<Record<CodeLanguage, Extractor>> = {
  c: extractCFamily,
  cpp: extractCFamily,
  typescript: extractTypeScriptFamily,
  tsx: extractTypeScriptFamily,
  javascript: extractTypeScriptFamily,
  python: extractPython,
};

export async function parseFile(input: ParseInput): Promise<ParsedFile> {
  const language = input.language ?? languageForPath(input.path);
  const out = emptyParsedFile(input.path, language);
  if (!isCodeLanguage(language)) {
    out.chunks = chunkText(input.content);
    return out;
  }
  const grammar = await loadGrammar(language);
  // C's format-attribute macros are parsed as blanks (c-attribute-macros.ts); the extraction reads the file's own text.
  const tree = grammar.parser.parse(language === "c" || language === "cpp" ? withoutAttributeMacros(input.content) : input.content);
  if (!tree) {
    out.chunks = chunkText(input.content);
    return out;
  }
  try {
    out.has_syntax_errors = tree.rootNode.hasError;
    EXTRACTORS[language](grammar, tree.rootNode, new ExtractContext(input.content, out));
    addBodyUses(out, input.content);
  } finally {
    // Trees live in wasm memory, which the JS garbage collector does not see.
    tree.delete();
  }
  return out;
}

/** Each long function's or method's identifiers past its indexed body (body-uses.ts). */
function addBodyUses(out: ParsedFile, content: string): void {
  let lines: string[] | null = null;
  for (const symbol of out.symbols) {
    if ((symbol.kind !== "function" && symbol.kind !== "method") || symbol.line_end - symbol.line_start + 1 <= INDEXED_BODY_LINES) continue;
    lines ??= content.split("\n");
    const uses = compoundIdentifiers(lines.slice(symbol.line_start - 1 + INDEXED_BODY_LINES, symbol.line_end));
    if (uses.length > 0) symbol.uses = uses;
  }
}
