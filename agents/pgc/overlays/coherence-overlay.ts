// O7 coherence: functions where overlays meet — a risky call that is documented or recently changed,
// or a documented function that asserts its invariants.
import type { ParsedFile } from "../parse/parsed-file.js";
import type { CodeSymbol, IndexDoc, Overlay } from "../types.js";
import { type DocDraft, draft } from "./doc-draft.js";
import type { GitHistory } from "./git-history.js";
import { PROSE_SECTIONS } from "./mission-overlay.js";
import { ProseMentions } from "./prose-mentions.js";

/** A change counts as recent when it is this close to the newest commit of the scope. */
export const RECENT_CHANGE_WINDOW_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Ties {
  risk?: string;
  mention?: IndexDoc;
  change?: string;
  assertion?: string;
}

/** Names common words could collide with are only counted when written as code: `name(` or `` `name` ``. */
function isIdentifierLike(name: string): boolean {
  return name.includes("_") || /[a-z][A-Z]/.test(name) || /\d/.test(name);
}

/** The prose documents (READMEs, docs, module docs), ready to be asked where a function is mentioned. */
function mentionIndex(docs: readonly IndexDoc[], parsed: readonly ParsedFile[]): ProseMentions {
  const prose = docs.filter((doc) => doc.overlay === "O4" && PROSE_SECTIONS.has(doc.section));
  const codeNames = new Set<string>();
  for (const file of parsed) for (const symbol of file.symbols) if (!isIdentifierLike(symbol.name)) codeNames.add(symbol.name);
  return new ProseMentions(prose, codeNames);
}

function mentionOf(symbol: CodeSymbol, index: ProseMentions): IndexDoc | undefined {
  return isIdentifierLike(symbol.name) ? index.word(symbol.name) : index.written(symbol.name);
}

function recentChange(file: string, history: GitHistory | null): string | undefined {
  const last = history?.files.get(file)?.recent[0];
  if (!last || !history?.newest) return undefined;
  const age = Date.parse(history.newest) - Date.parse(last.date);
  return age <= RECENT_CHANGE_WINDOW_DAYS * DAY_MS ? `${last.date.slice(0, 10)} "${last.subject}"` : undefined;
}

function tiesOf(symbol: CodeSymbol, file: ParsedFile, index: ProseMentions, history: GitHistory | null): Ties {
  const inside = (line: number): boolean => line >= symbol.line_start && line <= symbol.line_end;
  const risk = file.risks.find((item) => item.caller === symbol.name && inside(item.line_start));
  const assertion = file.assertions.find((item) => item.caller === symbol.name && inside(item.line_start));
  return {
    ...(risk ? { risk: `${risk.api}@${risk.line_start}` } : {}),
    ...(assertion ? { assertion: `${assertion.kind}@${assertion.line_start}` } : {}),
    mention: mentionOf(symbol, index),
    change: recentChange(symbol.file_path, history),
  };
}

function tiedOverlays(ties: Ties): Overlay[] | null {
  const riskTied = ties.risk !== undefined && (ties.mention !== undefined || ties.change !== undefined);
  const assertionTied = ties.mention !== undefined && ties.assertion !== undefined;
  if (!riskTied && !assertionTied) return null;
  const overlays: Overlay[] = ["O1"];
  if (ties.risk) overlays.push("O2");
  if (ties.change) overlays.push("O3");
  if (ties.mention) overlays.push("O4");
  if (ties.assertion) overlays.push("O6");
  return overlays;
}

function coherenceDoc(symbol: CodeSymbol, ties: Ties, overlays: Overlay[]): DocDraft {
  const parts = [
    ties.risk ? `O2:${ties.risk}` : "",
    ties.change ? `O3:changed ${ties.change}` : "",
    ties.mention ? `O4:${ties.mention.file_path}:${ties.mention.line_start}-${ties.mention.line_end}` : "",
    ties.assertion ? `O6:${ties.assertion}` : "",
  ].filter((part) => part !== "");
  const text = `coherence:${symbol.name} | ties:${overlays.join("+")} | ${parts.join(" | ")} | file:${symbol.file_path}:${symbol.line_start}`;
  return draft("O7", "coherence", symbol.file_path, symbol, text, {
    name: symbol.name,
    signature: symbol.signature,
    doc: parts.join("; "),
  }, symbol.name);
}

export function coherenceDocs(parsed: readonly ParsedFile[], docs: readonly IndexDoc[], history: GitHistory | null): DocDraft[] {
  const index = mentionIndex(docs, parsed);
  const out: DocDraft[] = [];
  for (const file of parsed) {
    for (const symbol of file.symbols) {
      if (symbol.kind !== "function" && symbol.kind !== "method") continue;
      const ties = tiesOf(symbol, file, index, history);
      const overlays = tiedOverlays(ties);
      if (overlays) out.push(coherenceDoc(symbol, ties, overlays));
    }
  }
  return out;
}
