// The question's subject, when it is a part of the code base by name: "How does yaml resolve a tag …", "When
// requests is set up with max_retries …" are about the `yaml/` and `requests/` packages, not about a
// `YamlLexer` elsewhere that has the word in its name. A start outside the subject's directory counts less.
import type { EntryCandidate } from "../../protocol/index.js";
import { tokenize } from "../../pgc/retrieval/index.js";

/**
 * A start outside every directory named as the question's subject counts this much. On the grounding
 * benchmark (2026-11-27), 37 questions name a subject bare ("How does yaml …", not "When a driver …");
 * 17 of those subjects are directories of the code base, and all 17 questions start under them.
 */
export const OUTSIDE_SUBJECT_PRIOR = 0.7;

/** How a question opens before its subject: "How does", "When", "Before", "With", … */
const OPENING = /^\s*(?:how|when|why|where|what|before|after|once|if|while|with|in|during)\s+(?:(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have)\s+)?([A-Za-z][\w-]*)/i;
/** Words that make the subject a common noun phrase ("the kernel", "a driver"), not a name. */
const DETERMINERS = new Set(["the", "a", "an", "this", "that", "these", "those", "its", "their", "my", "your", "our", "each", "every", "some", "any", "no"]);

/** The subject the question names bare, as the tokenizer keys it (`request` of "requests"), or null. */
export function bareSubject(text: string): string | null {
  const word = OPENING.exec(text)?.[1];
  if (!word || DETERMINERS.has(word.toLowerCase())) return null;
  const terms = tokenize(word.replace(/'s$/i, ""));
  return terms.length === 1 ? (terms[0] as string) : null;
}

/**
 * Whether a directory of the path (not its file) is named as the subject. A header directory's namespace
 * (`include/linux/`, `include/net/`) is none: "How does Linux …" is about the whole kernel, not its headers.
 */
function underSubject(filePath: string, subject: string): boolean {
  const dirs = filePath.split("/").slice(0, -1);
  return dirs.some((dir, i) => {
    if (dirs[i - 1] === "include") return false;
    const terms = tokenize(dir);
    return terms.length === 1 && terms[0] === subject;
  });
}

/**
 * Each candidate's subject prior: 1 under a directory the subject names, or when no candidate is (the
 * subject is no directory of the code base, or none of its code bears on the question); else
 * OUTSIDE_SUBJECT_PRIOR. With the subject's directory when it applies, for the candidate's why.
 */
export function subjectPriors(text: string, candidates: readonly Pick<EntryCandidate, "file_path">[]): { prior: (candidate: Pick<EntryCandidate, "file_path">) => number; subject: string | null } {
  const subject = bareSubject(text);
  if (subject === null || !candidates.some((c) => underSubject(c.file_path, subject))) return { prior: () => 1, subject: null };
  return { prior: (c) => (underSubject(c.file_path, subject) ? 1 : OUTSIDE_SUBJECT_PRIOR), subject };
}
