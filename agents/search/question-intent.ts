// What a question asks for: a path ("how does …") or the callers of a function ("who calls X?", "which
// drivers call X?"), and for the latter the name it writes. Read once, by parseQuestion (question.ts).

export type QuestionIntent = "how" | "callers";

/** "Callers of X", "X is called by", "where is X called". */
const CALLERS_PHRASE = /\bcallers?\s+of\b|\bcalled\s+(by|from)\b|\bwhere\s+is\b.*\bcalled\b/i;

/**
 * The verbs of "who calls X", "which drivers call X", "what code uses X", and of taking a lock, which is
 * calling the function that takes it ("Which functions take device_pm_lock, the mutex …?", "what acquires
 * X").
 */
const CALLING = /^(?:calls?|uses?|invokes?|takes?|acquires?|grabs?)$/i;
/**
 * Words that, between "who / what / which" and the verb, make it another question: an auxiliary ("What
 * does do_exit call?" asks for its callees), a pronoun or a clause ("What happens when I call queryOnce").
 */
const NOT_A_CALLER = new Set(["do", "does", "did", "is", "are", "was", "were", "can", "could", "should", "will", "would", "must", "to", "when", "if", "happens", "happen", "then", "i", "you", "we", "they", "it", "he", "she"]);
/**
 * Words at most between "which" and the verb: "Which serial drivers call …", "Which drivers and which parts
 * of the USB core call …" name the callers as a noun phrase (3 missed the second; 6 gives every question of
 * the grounding benchmark its intent).
 */
const MAX_CALLER_WORDS = 6;

/**
 * A determiner right after the one noun that "which" or "what" goes with begins a relative clause with a
 * subject of its own: "… which BARs the device uses" asks what the device uses, not which BARs use
 * something ("which parts of the USB core call …", "which functions in this code base call …" go on with
 * a preposition).
 */
const CLAUSE_SUBJECT = /^(?:the|a|an|its|their|this|that|these|those|my|our|your)$/i;
/** "Which of the key-exchange implementations call …": the determiner is the preposition's. */
const PREPOSITION = /^(?:of|in|on|from|for|with|at|by|to|into|among)$/i;

/**
 * Right after "which" or "what", these are nouns the determiner goes with ("which call finally performs the
 * DNS lookup", "what use is …"), not the verb of "who calls X": a verb there agrees with "which" or "what"
 * as its subject ("What calls tcp_sendmsg?", "which uses …").
 */
const CALL_NOUN = /^(?:call|use|invoke)$/i;

/**
 * "… by calling X": the means by which the code asked for does what it does. When the "which" or "what"
 * of the question is its subject (no auxiliary or pronoun comes before), the code asked for is a caller
 * of X however long its description ("Which code starts or restarts the countdown of a query or mutation
 * by calling scheduleGc?").
 */
const BY_CALLING = /^(?:calling|invoking)$/i;

/** "Who calls X", "what uses X", "which (serial) drivers call X", "which code … by calling X", "callers of X", "X is called by", "where is X called". */
function asksForCallers(text: string): boolean {
  if (CALLERS_PHRASE.test(text)) return true;
  const words = text.split(/\s+/).map((w) => w.replace(/^[^\w$]+|[^\w$]+$/g, ""));
  for (const [i, word] of words.entries()) {
    if (!/^(?:who|what|which)$/i.test(word)) continue;
    for (let k = i + 1; k < words.length; k++) {
      const next = words[k] as string;
      if (k === i + 1 && /^(?:which|what)$/i.test(word) && CALL_NOUN.test(next)) break;
      if (k <= i + 1 + MAX_CALLER_WORDS && CALLING.test(next)) return true;
      if (NOT_A_CALLER.has(next.toLowerCase())) break;
      if (k === i + 2 && CLAUSE_SUBJECT.test(next) && !PREPOSITION.test(words[i + 1] ?? "")) break;
      if (next.toLowerCase() === "by" && BY_CALLING.test(words[k + 1] ?? "")) return true;
    }
  }
  return false;
}

/**
 * The thing a "who calls" question is about: the word after "calls" / "by calling" / "callers of", or
 * before "is called by". It is a code name whatever its shape ("Who calls clone?"), since only code is called.
 */
const CALLED_NAME = [/\b(?:calls?|uses?|invokes?|takes?|acquires?|grabs?|(?<=\bby\s+)(?:calling|invoking)|callers?\s+of)\s+`?([A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*)/i, /\b([A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*)(?:\(\))?`?\s+(?:is|gets)\s+called\b/i];

/** Words that begin a description, not a name: "Who calls the function that …", "Who calls my handler?". */
const DETERMINERS: ReadonlySet<string> = new Set(["the", "a", "an", "this", "that", "these", "those", "its", "their", "my", "our", "your", "into", "back", "out", "through"]);

/**
 * The name a "who calls" question writes, or null when it describes the function instead ("Who calls the
 * function that serialises a cookie …?": "the" is no name, nor is a word of `noise`, the question's words
 * that say what kind of answer it wants; its words then find the function).
 */
export function calledName(text: string, noise: ReadonlySet<string>): string | null {
  for (const pattern of CALLED_NAME) {
    const name = pattern.exec(text)?.[1];
    if (name && !noise.has(name.toLowerCase()) && !DETERMINERS.has(name.toLowerCase())) return name;
  }
  return null;
}

/** A who-calls question, or a path to trace. */
export function intentOf(text: string): QuestionIntent {
  return asksForCallers(text) ? "callers" : "how";
}
