// O3 lineage: call edges, call chains that leave the scope, include/import edges and per-file git history.
import type { ParsedCall, ParsedFile } from "../parse/parsed-file.js";
import type { CrossScopeReference, FileRecord, ImportEdge } from "../types.js";
import { type DocDraft, draft } from "./doc-draft.js";
import type { FileHistory, GitHistory } from "./git-history.js";
import type { SymbolIndex } from "./symbol-index.js";

/** In-scope callers prepended to a chain that ends outside the scope, at most. */
export const MAX_CHAIN_CALLERS = 4;

export interface LineageInput {
  parsed: readonly ParsedFile[];
  files: readonly FileRecord[];
  imports: readonly ImportEdge[];
  references: readonly CrossScopeReference[];
  history: GitHistory | null;
  symbols: SymbolIndex;
}

const referenceKey = (file: string, line: number, target: string): string => `${file}:${line}:${target}`;

/** One edge per (caller, callee) pair of a file, at its first call site. */
function uniqueEdges(file: ParsedFile): ParsedCall[] {
  const seen = new Set<string>();
  return file.calls.filter((call) => {
    // A property read is a call only of a getter, which the call graph decides (CallSite.read).
    if (call.read) return false;
    const key = `${call.caller ?? ""}\0${call.callee}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function callDocs(input: LineageInput, outside: ReadonlySet<string>): DocDraft[] {
  const docs: DocDraft[] = [];
  for (const file of input.parsed) {
    for (const call of uniqueEdges(file)) {
      // A parameter or variable of the caller (`local`) holds a value: no definition of that name is meant.
      const target = call.local ? null : input.symbols.definitionOf(call.callee, call.plain);
      const where = target
        ? `defined at ${target.file_path}:${target.line_start}`
        : call.local ? "a parameter or variable of the caller (indirect)" : outside.has(referenceKey(call.file_path, call.line, call.callee)) ? "outside this scope" : "not in this scope (library, builtin or indirect)";
      const caller = call.caller ?? "(file scope)";
      const text = `call_chain: ${caller} → ${call.callee} | file:${call.file_path}:${call.line} | callee ${where}`;
      const span = { line_start: call.line, line_end: call.line };
      docs.push(draft("O3", "call_chain", call.file_path, span, text, { name: call.callee, signature: `${caller} → ${call.callee}`, doc: where }, call.caller ?? undefined));
    }
  }
  return docs;
}

/** Callers of each in-scope function name, in source order. */
function callersByCallee(parsed: readonly ParsedFile[]): Map<string, ParsedCall[]> {
  const callers = new Map<string, ParsedCall[]>();
  for (const file of parsed) {
    for (const call of file.calls) {
      if (!call.plain || call.local || call.caller === null) continue;
      const list = callers.get(call.callee) ?? [];
      list.push(call);
      callers.set(call.callee, list);
    }
  }
  return callers;
}

/** `sock_sendmsg() → dev_queue_xmit() → e1000_xmit_frame() [outside scope]`, from the first caller found at each step. */
function chainDocs(input: LineageInput): DocDraft[] {
  const callers = callersByCallee(input.parsed);
  const seen = new Set<string>();
  const docs: DocDraft[] = [];
  for (const reference of input.references) {
    if (reference.kind !== "call" || !reference.caller || seen.has(`${reference.caller}\0${reference.target}`)) continue;
    seen.add(`${reference.caller}\0${reference.target}`);
    const chain = [reference.caller];
    for (let step = 1; step < MAX_CHAIN_CALLERS; step++) {
      const next = callers.get(chain[0] ?? "")?.find((call) => call.caller !== null && !chain.includes(call.caller));
      if (!next?.caller) break;
      chain.unshift(next.caller);
    }
    const located = chain.map((name) => {
      const symbol = input.symbols.all(name)[0];
      return symbol ? `${symbol.file_path}:${name}()` : `${name}()`;
    });
    const text = `Call chain: ${[...located, `${reference.target}() [outside scope]`].join(" → ")}`;
    const span = { line_start: reference.line, line_end: reference.line };
    const fields = { name: reference.target, signature: [...chain, reference.target].join(" → "), doc: "call chain leaving the scope" };
    docs.push(draft("O3", "call_chain", reference.from_file, span, text, fields, reference.caller));
  }
  return docs;
}

function importDocs(input: LineageInput): DocDraft[] {
  const outside = new Map(input.references.map((reference) => [referenceKey(reference.from_file, reference.line, reference.spec ?? ""), reference]));
  return input.imports.map((edge) => {
    const reference = outside.get(referenceKey(edge.file_path, edge.line, edge.target));
    const resolves = edge.resolved_path
      ? edge.resolved_path
      : reference ? `outside this scope${reference.resolved_outside ? ` (${reference.resolved_outside})` : ""}` : "standard library";
    const text = `${edge.kind}: ${edge.target} | from:${edge.file_path}:${edge.line} | resolves:${resolves}`;
    const span = { line_start: edge.line, line_end: edge.line };
    return draft("O3", edge.kind, edge.file_path, span, text, { name: edge.target, doc: resolves });
  });
}

function historyText(history: FileHistory): string {
  const last = history.recent[0];
  const lastPart = last ? ` | last:${last.date.slice(0, 10)} "${last.subject}" by ${last.author}` : "";
  return `history: ${history.path} | commits:${history.commits}${lastPart}`;
}

function historyDocs(input: LineageInput): DocDraft[] {
  if (!input.history) return [];
  const docs: DocDraft[] = [];
  for (const file of input.files) {
    const history = input.history.files.get(file.path);
    if (!history || file.lines === 0) continue;
    const body = history.recent.map((commit) => `${commit.date} ${commit.hash.slice(0, 12)} ${commit.author}: ${commit.subject}`).join("\n");
    docs.push(draft("O3", "history", file.path, { line_start: 1, line_end: file.lines }, historyText(history), { name: file.path, body }));
  }
  return docs;
}

export function lineageDocs(input: LineageInput): DocDraft[] {
  const outside = new Set(
    input.references.filter((reference) => reference.kind === "call").map((reference) => referenceKey(reference.from_file, reference.line, reference.target)),
  );
  return [...callDocs(input, outside), ...chainDocs(input), ...importDocs(input), ...historyDocs(input)];
}
