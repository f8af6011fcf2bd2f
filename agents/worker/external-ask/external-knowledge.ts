// A worker whose evidence comes from an external `ask --json` command (for example cognition-cli's)
// instead of the built-in index. Its sources become citations marked "external" (not calibrated by
// us) and are only cited when they name a file, lines and hash — so they stay checkable. Topology
// facts and citation checks still come from the scope's own extraction.
import { parseAskResult, truncateText, MAX_CITATION_CHARS, OVERLAY_IDS, type AskResult, type Citation, type OverlayId } from "../../protocol/index.js";
import type { ScopeKnowledge } from "../knowledge.js";
import { runCommand } from "../exec/run-command.js";

export const DEFAULT_EXTERNAL_ASK_TIMEOUT_MS = 30_000;

export class ExternalAskError extends Error {
  override readonly name = "ExternalAskError";
  constructor(
    readonly code: "PGC_TIMEOUT" | "PGC_QUERY_FAILED",
    message: string,
    readonly retryable = true,
  ) {
    super(message);
  }
}

export interface ExternalAskOptions {
  /** argv; the question, `--json`, and `--overlays O1,O3` / `--top-k N` when given are appended. */
  command: readonly string[];
  cwd: string;
  timeoutMs?: number;
}

export async function runExternalAsk(options: ExternalAskOptions, question: string, extra: { overlays?: readonly string[]; topK?: number; signal?: AbortSignal }): Promise<AskResult> {
  const argv = [...options.command, question, "--json", ...(extra.overlays?.length ? ["--overlays", extra.overlays.join(",")] : []), ...(extra.topK ? ["--top-k", String(extra.topK)] : [])];
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_EXTERNAL_ASK_TIMEOUT_MS);
  const outcome = await runCommand({ argv, cwd: options.cwd, env: process.env, deadline, signal: extra.signal ?? new AbortController().signal, captureStdoutOnly: true });
  if (outcome.kind === "timed_out") throw new ExternalAskError("PGC_TIMEOUT", `${argv[0]} did not answer within ${options.timeoutMs ?? DEFAULT_EXTERNAL_ASK_TIMEOUT_MS} ms`);
  if (outcome.kind === "not_found") throw new ExternalAskError("PGC_QUERY_FAILED", outcome.detail, false);
  if (outcome.kind !== "exited" || outcome.code !== 0) throw new ExternalAskError("PGC_QUERY_FAILED", `${argv[0]} failed: ${outcome.kind === "exited" ? `exit ${outcome.code}` : outcome.kind}`);
  try {
    return parseAskResult(JSON.parse(outcome.stdout ?? ""));
  } catch (error) {
    throw new ExternalAskError("PGC_QUERY_FAILED", `${argv[0]} did not print an ask --json result: ${(error as Error).message.slice(0, 300)}`);
  }
}

function asOverlay(value: string): OverlayId {
  return (OVERLAY_IDS as readonly string[]).includes(value) ? (value as OverlayId) : "O1";
}

export function citationsFrom(result: AskResult): Citation[] {
  return result.sources.flatMap((s): Citation[] => {
    if (s.file_path === undefined || s.line_start === undefined || s.line_end === undefined || s.sha256 === undefined) return [];
    const similarity = Math.min(1, Math.max(0, s.similarity));
    return [{ overlay: asOverlay(s.overlay), content: truncateText(s.text || s.section || s.overlay, MAX_CITATION_CHARS), relevance: `external ask: ${s.section}`.slice(0, 200), file_path: s.file_path, line_start: s.line_start, line_end: s.line_end, sha256: s.sha256, similarity, similarity_kind: "external" }];
  });
}

/** Knowledge answering from the external command; facts, overlays and verification from `own`. */
export function externalKnowledge(own: ScopeKnowledge, options: ExternalAskOptions): ScopeKnowledge {
  return {
    overlays: () => own.overlays(),
    query: async (text, q) => citationsFrom(await runExternalAsk(options, text, { ...(q.overlays ? { overlays: q.overlays } : {}), topK: q.topK, ...(q.signal ? { signal: q.signal } : {}) })),
    ask: (question, a) => runExternalAsk(options, question, { ...(a.overlays ? { overlays: a.overlays } : {}), ...(a.topK ? { topK: a.topK } : {}), ...(a.signal ? { signal: a.signal } : {}) }),
    facts: () => own.facts(),
    verify: (citations) => own.verify(citations),
    stats: () => ({ ...own.stats(), similarity: "external" }),
  };
}
