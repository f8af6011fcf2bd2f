// Re-hashing cited lines: read by the manager when it can read the root, else by another replica.
import { citationHash, CitationRangeError, countLines, sliceLines, type Citation } from "../../protocol/index.js";

export type ReadFile = (path: string) => Promise<string | null>;
export type VerifyRemote = (citations: readonly Citation[]) => Promise<boolean[]>;

export interface HashSources {
  readFile: ReadFile | null;
  verifyRemote?: VerifyRemote | undefined;
}

export interface HashCheck {
  outcome: "verified" | "fabricated" | "unverifiable";
  detail: string;
  /** The cited lines as read by the manager (only when it read them itself). */
  text?: string;
}

/** Digits of a hash shown in a reason: enough to tell two apart, short enough to read. */
const HASH_DIGITS_SHOWN = 12;

/** Compares the cited lines of `fileText` (null: no such file) with the citation's hash. */
export function checkAgainstText(fileText: string | null, citation: Pick<Citation, "line_start" | "line_end" | "sha256">): HashCheck {
  if (fileText === null) return { outcome: "fabricated", detail: "the file does not exist" };
  let text: string;
  try {
    text = sliceLines(fileText, citation.line_start, citation.line_end);
  } catch (error) {
    if (!(error instanceof CitationRangeError)) throw error;
    return { outcome: "fabricated", detail: `lines ${citation.line_start}-${citation.line_end} do not exist (the file has ${countLines(fileText)})` };
  }
  const actual = citationHash(text);
  if (actual === citation.sha256) return { outcome: "verified", detail: "re-read by the manager", text };
  const shown = (hash: string) => `${hash.slice(0, HASH_DIGITS_SHOWN)}…`;
  return { outcome: "fabricated", detail: `the cited lines hash to ${shown(actual)}, not ${shown(citation.sha256)}` };
}

/** Reads each cited file once; a read that throws leaves its citations unchecked (undefined). */
async function checkLocally(citations: readonly Citation[], readFile: ReadFile): Promise<(HashCheck | undefined)[]> {
  const reads = new Map<string, Promise<string | null>>();
  const results: (HashCheck | undefined)[] = [];
  for (const citation of citations) {
    let read = reads.get(citation.file_path);
    // Wrapped so a reader that throws synchronously is handled like one that rejects.
    if (!read) reads.set(citation.file_path, (read = Promise.resolve(citation.file_path).then(readFile)));
    try {
      results.push(checkAgainstText(await read, citation));
    } catch {
      // the manager could not read it (permissions, a directory…): another replica may
      results.push(undefined);
    }
  }
  return results;
}

async function checkRemotely(citations: readonly Citation[], sources: HashSources): Promise<HashCheck[]> {
  const unverifiable = (detail: string): HashCheck[] => citations.map(() => ({ outcome: "unverifiable", detail }));
  const { verifyRemote } = sources;
  if (!verifyRemote) return unverifiable(`the manager ${sources.readFile ? "could not read the file" : "cannot read the root"} and no replica was asked`);
  let answers: unknown;
  try {
    answers = await verifyRemote(citations);
  } catch (error) {
    return unverifiable(`no replica could check it (${(error as Error).message})`);
  }
  if (!Array.isArray(answers) || answers.length !== citations.length) {
    return unverifiable(`a replica answered ${Array.isArray(answers) ? answers.length : "no list of"} results for ${citations.length} citations`);
  }
  return answers.map((answer): HashCheck => {
    if (answer === true) return { outcome: "verified", detail: "re-hashed by another replica" };
    if (answer === false) return { outcome: "fabricated", detail: "another replica re-hashed the cited lines: no match" };
    return { outcome: "unverifiable", detail: "a replica answered something other than true or false" };
  });
}

/** One HashCheck per citation, in order; never throws for a file or replica problem. */
export async function checkHashes(citations: readonly Citation[], sources: HashSources): Promise<HashCheck[]> {
  const local = sources.readFile ? await checkLocally(citations, sources.readFile) : citations.map(() => undefined);
  const pending = citations.filter((_, i) => local[i] === undefined);
  const remote = pending.length > 0 ? await checkRemotely(pending, sources) : [];
  let next = 0;
  return local.map((result) => result ?? (remote[next++] as HashCheck));
}
