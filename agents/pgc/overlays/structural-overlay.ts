// O1 structural: one document per symbol, in the seed's one-line form plus its signature, doc and body.
import type { CodeSymbol } from "../types.js";
import type { ParsedFile } from "../parse/parsed-file.js";
import { type DocDraft, draft } from "./doc-draft.js";
import type { SourceLines } from "./source-lines.js";

/** `dma_alloc_coherent` or `Widget.grow`: the name a reader would search for. */
export function displayName(symbol: CodeSymbol): string {
  if (symbol.kind !== "method" || !symbol.container) return symbol.name;
  const owner = symbol.container.split("::").at(-1) ?? symbol.container;
  return `${owner}.${symbol.name}`;
}

/** The value of an object-like macro, from its `#define NAME value` signature. */
function macroValue(symbol: CodeSymbol): string {
  return symbol.signature.replace(/^#\s*define\s+\S+\s*/, "");
}

/** The seed's form: `function:dma_alloc_coherent | params:3 | returns:void * | file:mm/dma.c:42`. */
export function structuralText(symbol: CodeSymbol): string {
  const where = `file:${symbol.file_path}:${symbol.line_start}`;
  const name = `${symbol.kind}:${displayName(symbol)}`;
  switch (symbol.kind) {
    case "function":
    case "method": {
      const header = symbol.in_header ? " | in_header" : "";
      return `${name} | params:${symbol.params ?? 0} | returns:${symbol.returns ?? "none"}${header} | ${where}`;
    }
    case "struct":
    case "union":
    case "class":
      return `${name} | fields:${symbol.members ?? 0} | ${where}`;
    case "interface":
      return `${name} | properties:${symbol.members ?? 0} | ${where}`;
    case "enum":
      return `${name} | members:${symbol.members ?? 0} | ${where}`;
    case "macro":
      return symbol.params !== undefined
        ? `${name} | params:${symbol.params} | ${where}`
        : `${name} | value:${macroValue(symbol)} | ${where}`;
    default:
      return `${name} | ${symbol.signature} | ${where}`;
  }
}

export function structuralDocs(parsed: ParsedFile, source: SourceLines): DocDraft[] {
  return parsed.symbols.map((symbol) =>
    draft(
      "O1",
      symbol.kind,
      parsed.path,
      symbol,
      structuralText(symbol),
      {
        name: displayName(symbol),
        signature: symbol.signature,
        doc: symbol.doc,
        body: source.text(symbol.line_start, symbol.line_end),
      },
      symbol.name,
    ),
  );
}
