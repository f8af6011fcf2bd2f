// Citations are checked, not trusted: inside the worker's scope, and the text at the cited lines
// hashes to the cited sha256 — re-read by the manager, or re-hashed by another replica.
import { citationMatches, type Citation } from "../../protocol/index.js";

export type CitationOutcome = "verified" | "mismatch" | "out_of_scope" | "unverifiable";

export interface CitationCheckContext {
  scopePaths: readonly string[];
  readFile: ((path: string) => Promise<string | null>) | null;
  verifyRemote?: (citations: readonly Citation[]) => Promise<boolean[]>;
}

export function insideScope(path: string, scopePaths: readonly string[]): boolean {
  if (path.startsWith("/") || path.split("/").includes("..")) return false;
  if (scopePaths.length === 0 || scopePaths.includes("")) return true;
  return scopePaths.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p));
}

/** Deterministic sample of `size` citations (all when size ≥ count). */
export function sample<T>(items: readonly T[], size: number, random: () => number): T[] {
  if (size >= items.length) return [...items];
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < size) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
  return chosen;
}

export async function checkCitations(citations: readonly Citation[], context: CitationCheckContext): Promise<CitationOutcome[]> {
  const outcomes: CitationOutcome[] = citations.map((c) => (insideScope(c.file_path, context.scopePaths) ? "unverifiable" : "out_of_scope"));
  const pending = citations.map((c, i) => ({ c, i })).filter(({ i }) => outcomes[i] === "unverifiable");
  if (context.readFile) {
    for (const { c, i } of pending) {
      const text = await context.readFile(c.file_path);
      outcomes[i] = text === null ? "mismatch" : citationMatches(text, c) ? "verified" : "mismatch";
    }
    return outcomes;
  }
  if (context.verifyRemote && pending.length > 0) {
    try {
      const answers = await context.verifyRemote(pending.map(({ c }) => c));
      pending.forEach(({ i }, k) => (outcomes[i] = answers[k] === true ? "verified" : "mismatch"));
    } catch {
      // no replica could check them: they stay unverifiable
    }
  }
  return outcomes;
}
