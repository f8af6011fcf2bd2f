// Reading OUTPUT.md (CDP, seed 000) back into an executor result. Lenient about layout, strict about
// meaning: the status line decides the status; sections are found by their headings.
import type { ExecutorOutput } from "../executor.js";

export const MAX_OUTPUT_BYTES = 256 * 1024;

const STATUS_WORDS: Record<string, ExecutorOutput["status"]> = {
  completed: "completed",
  complete: "completed",
  done: "completed",
  partial: "partial",
  blocked: "blocked",
  failed: "failed",
  "needs-input": "needs_clarification",
  needs_input: "needs_clarification",
  needs_clarification: "needs_clarification",
  "needs-clarification": "needs_clarification",
};

/** Sections of a markdown document by their `## ` heading, lower-cased. */
function sections(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (current !== null) found.set(current, lines.join("\n").trim());
  };
  for (const line of text.split("\n")) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      flush();
      current = (heading[1] ?? "").toLowerCase();
      lines = [];
    } else if (current !== null) lines.push(line);
  }
  flush();
  return found;
}

function bullets(text: string | undefined): string[] {
  return (text ?? "")
    .split("\n")
    .map((l) => /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(l)?.[1]?.trim() ?? "")
    .filter((l) => l.length > 0);
}

function pick(all: Map<string, string>, ...names: string[]): string | undefined {
  for (const name of names) if (all.has(name)) return all.get(name);
  return undefined;
}

export function parseOutputFile(text: string): ExecutorOutput {
  const statusWord = /^\s*(?:\*\*)?status:?(?:\*\*)?:?\s*([A-Za-z_-]+)/im.exec(text)?.[1]?.toLowerCase() ?? "";
  const status = STATUS_WORDS[statusWord];
  const all = sections(text);
  const summary = pick(all, "summary", "result") ?? "";
  const forPrimary = pick(all, "for primary", "blocked because", "needs clarification") ?? "";
  const findings = bullets(pick(all, "key findings", "findings", "decisions made")).map((f) => f.slice(0, 300));
  const files = bullets(pick(all, "files referenced", "files modified", "key files")).map((f) => (/`([^`]+)`/.exec(f)?.[1] ?? f.split(/\s+/)[0] ?? "").trim());
  if (!status) {
    return { status: "blocked", result: `OUTPUT.md has no recognizable status line (got "${statusWord || "nothing"}")`, error: { code: "EXECUTOR_FAILED", message: "OUTPUT.md has no status line", retryable: false } };
  }
  const result = [summary, forPrimary].filter(Boolean).join("\n\n") || "(the agent wrote no summary)";
  const base: ExecutorOutput = { status, result, key_findings: findings.slice(0, 10), referenced_files: files.filter(Boolean) };
  if (status === "needs_clarification") return { ...base, clarification_request: { question: (forPrimary || summary || "the agent needs input").slice(0, 2000) } };
  if (status === "blocked" || status === "failed") return { ...base, error: { code: "EXECUTOR_FAILED", message: (forPrimary || summary || `the agent reported ${status}`).slice(0, 2000), retryable: false } };
  return base;
}
