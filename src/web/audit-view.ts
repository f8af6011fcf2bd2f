// The audit as `mesh web` shows it: the fleet's answers (audit.jsonl) and delegations (MANIFEST.jsonl) as
// one list, newest first, filtered by scope, verdict and time; and one citation re-read with its hash
// check, as `mesh trace --verify` does for a whole answer.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AUDIT_FILE, MANIFEST_FILE } from "../../agents/manager/audit-log.js";
import { checkAgainstText } from "../../agents/manager/validation/hash-check.js";
import { SourceReader } from "../../agents/pgc/scan/index.js";
import type { AuditEntry, CitedLines } from "./types.js";

export interface AuditFilter {
  scope?: string | undefined;
  verdict?: string | undefined;
  /** ISO date or time: entries recorded at or after it. */
  since?: string | undefined;
  limit?: number | undefined;
}

export const AUDIT_PAGE = 200;

function jsonLines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  const out: Record<string, unknown>[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a torn last line from a crash
    }
  }
  return out;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

function answerEntry(record: Record<string, unknown>): AuditEntry | null {
  if (record["kind"] !== "multi_hop" || typeof record["id"] !== "string") return null;
  const hops = Array.isArray(record["knowledge_chain"]) ? (record["knowledge_chain"] as { scope?: unknown; verdict?: { status?: unknown } }[]) : [];
  const chain = Array.isArray(record["chain"]) ? (record["chain"] as { scope?: unknown }[]) : [];
  const statuses = hops.map((h) => h.verdict?.status).filter((s): s is string => typeof s === "string");
  const scopes = [...new Set([...chain.map((s) => s.scope), ...hops.map((h) => h.scope), ...strings(record["query_path"])].filter((s): s is string => typeof s === "string"))];
  return {
    kind: "answer",
    id: record["id"],
    at: typeof record["recorded_at"] === "string" ? record["recorded_at"] : "",
    scopes,
    verdict: statuses.includes("rejected") ? "rejected" : statuses.length > 0 ? "accepted" : "none",
    title: typeof record["question"] === "string" ? record["question"] : "",
    detail: `${String(record["outcome"] ?? record["mode"] ?? "")}${record["confidence"] ? `, confidence ${String(record["confidence"])}` : ""}, ${chain.length || hops.length} step(s)`,
  };
}

function taskEntry(entry: Record<string, unknown>): AuditEntry | null {
  if (typeof entry["id"] !== "string") return null;
  const agentType = typeof entry["agent_type"] === "string" ? entry["agent_type"] : "";
  const scope = agentType.startsWith("worker:") ? agentType.slice("worker:".length) : strings(entry["topics"])[0];
  return {
    kind: "task",
    id: entry["id"],
    at: typeof entry["date"] === "string" ? entry["date"] : "",
    scopes: scope ? [scope] : [],
    verdict: typeof entry["status"] === "string" ? entry["status"] : "",
    title: typeof entry["title"] === "string" ? entry["title"] : "",
    detail: strings(entry["key_findings"]).slice(0, 2).join(" · ") || strings(entry["needs_followup"]).slice(0, 1).join(""),
  };
}

/** The answers and delegations of an audit directory, newest first, filtered. */
export function auditEntries(auditDir: string, filter: AuditFilter = {}): AuditEntry[] {
  const answers = jsonLines(join(auditDir, AUDIT_FILE)).map(answerEntry);
  const tasks = jsonLines(join(auditDir, MANIFEST_FILE)).map(taskEntry);
  const since = filter.since ?? "";
  return [...answers, ...tasks]
    .filter((e): e is AuditEntry => e !== null)
    .filter((e) => !filter.scope || e.scopes.includes(filter.scope))
    .filter((e) => !filter.verdict || e.verdict === filter.verdict)
    // ISO strings compare in time order; a day compares with a time on its date part.
    .filter((e) => !since || e.at >= since.slice(0, e.at.length))
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, Math.min(filter.limit ?? AUDIT_PAGE, AUDIT_PAGE));
}

/** Cited lines shown at most per citation (a longer span shows its first lines; the hash covers all). */
export const MAX_SHOWN_LINES = 120;

/** One citation re-read under `root` (paths leaving it are refused as missing) and re-hashed. */
export function citedLines(reader: SourceReader, citation: { file_path: string; line_start: number; line_end: number; sha256: string }): CitedLines {
  const place = { file_path: citation.file_path, line_start: citation.line_start, line_end: citation.line_end };
  const text = reader.read(citation.file_path);
  if (text === null) return { ...place, outcome: "missing", detail: "no such regular file inside the fleet's root (deleted, moved, or a path leaving the root)", lines: [] };
  const check = checkAgainstText(text, citation);
  const all = text.split("\n");
  const last = Math.min(citation.line_end, all.length, citation.line_start + MAX_SHOWN_LINES - 1);
  const lines = [];
  for (let n = citation.line_start; n <= last; n++) lines.push({ n, text: all[n - 1] ?? "" });
  return check.outcome === "verified"
    ? { ...place, outcome: "match", detail: "the cited lines hash to the cited sha256: unchanged since the answer", lines }
    : { ...place, outcome: "changed", detail: `changed since the answer: ${check.detail}`, lines };
}

export { SourceReader };
