// O6 mathematical: assertions, invariants and bounds stated in comments, and numeric limit constants.
import type { CodeSymbol } from "../types.js";
import type { ParsedFile } from "../parse/parsed-file.js";
import { type DocDraft, draft } from "./doc-draft.js";
import type { SourceLines } from "./source-lines.js";

/** A constant named as a limit: MAX_ORDER, E1000_MAX_TXD, KMALLOC_MIN_SIZE, RETRY_LIMIT. */
const LIMIT_NAME = /(^|_)(MAX|MIN|LIMIT|CAP)(_|$)|_(MAX|MIN|LIMIT)[A-Z]*$/;
/** `MAX_X = 5`, `export const MAX_X = 5;`, `MAX_X: int = 5` in TS/JS/Python. */
const SCRIPT_LIMIT = /^\s*(?:export\s+)?(?:const\s+|let\s+|var\s+)?([A-Z][A-Z0-9_]*)\s*(?::\s*[\w.<>]+\s*)?=\s*(-?[\d_]+(?:\.\d+)?(?:\s*[*<]+\s*[\d_]+)*)\s*;?\s*(?:#.*|\/\/.*)?$/;

function isLimitMacro(symbol: CodeSymbol): boolean {
  return symbol.kind === "macro" && symbol.params === undefined && LIMIT_NAME.test(symbol.name) && /\d/.test(symbol.signature);
}

function assertionDocs(parsed: ParsedFile, source: SourceLines): DocDraft[] {
  return parsed.assertions.map((assertion) => {
    const text = `assertion:${assertion.kind} | ${assertion.text} | in:${assertion.caller ?? "(file scope)"} | file:${parsed.path}:${assertion.line_start}`;
    const fields = { name: assertion.kind, signature: assertion.text, body: source.text(assertion.line_start, assertion.line_end) };
    return draft("O6", "assertion", parsed.path, assertion, text, fields, assertion.caller ?? undefined);
  });
}

function invariantDocs(parsed: ParsedFile, source: SourceLines): DocDraft[] {
  return parsed.bounds.map((note) => {
    const enclosing = parsed.symbols.find(
      (symbol) => symbol.line_start <= note.line_start && symbol.line_end >= note.line_end && symbol.kind !== "macro",
    );
    const text = `invariant:${note.text} | file:${parsed.path}:${note.line_start}`;
    const fields = { ...(enclosing ? { name: enclosing.name } : {}), doc: note.text, body: source.text(note.line_start, note.line_end) };
    return draft("O6", "invariant", parsed.path, note, text, fields, enclosing?.name);
  });
}

function limitDocs(parsed: ParsedFile, source: SourceLines, lineCount: number): DocDraft[] {
  const docs = parsed.symbols.filter(isLimitMacro).map((symbol) =>
    draft("O6", "limit", parsed.path, symbol, `limit:${symbol.name} | ${symbol.signature} | file:${parsed.path}:${symbol.line_start}`, {
      name: symbol.name,
      signature: symbol.signature,
      doc: symbol.doc,
    }, symbol.name),
  );
  if (parsed.language === "c" || parsed.language === "cpp" || parsed.language === "text") return docs;
  for (let line = 1; line <= lineCount; line++) {
    const match = SCRIPT_LIMIT.exec(source.line(line));
    const name = match?.[1];
    if (!match || !name || !LIMIT_NAME.test(name)) continue;
    const span = { line_start: line, line_end: line };
    const text = `limit:${name} | ${source.line(line).trim()} | file:${parsed.path}:${line}`;
    docs.push(draft("O6", "limit", parsed.path, span, text, { name, signature: source.line(line).trim() }, name));
  }
  return docs;
}

export function mathematicalDocs(parsed: ParsedFile, source: SourceLines, lineCount: number): DocDraft[] {
  return [...assertionDocs(parsed, source), ...invariantDocs(parsed, source), ...limitDocs(parsed, source, lineCount)];
}
