// The roles of a question's parts: where it says its path ends (its destination) and where it says how the
// user set things up (its setting). Both weigh less when choosing where the path starts (entry-round.ts);
// the chain still has to cover them. Computed from the question's text, on the manager only.
import { questionTokens, wholeNameTerm, type ParsedQuestion } from "./question.js";

/**
 * Where the question says its path ends: the phrase after its last "to", "into", "towards", "down to" that
 * names a thing (a determiner, a capitalized or code word, or a possessive follows: "… handed to TCP's receive
 * function", "… all the way down to setInterval", "… handed to httpcore's connection pool"; not the
 * infinitive "to send"), when that phrase ends the question.
 */
const DESTINATION = /\b(?:to|into|onto|towards?)\s+(?=(?:the|an?|its|their|this|that)\b|[A-Z`]|[\w$]+\(|[\w$]*_[\w$]*\b|[a-z]+[A-Z]|[\w$]+'s\b)/g;
const CLAUSE_END = /[?,;:—]|\s(?:and|when|while|so|before|after|until)\s/;

/**
 * The terms the question uses only for where its path ends: they say what the chain must reach, not where it
 * starts ("How is an incoming IPv4 packet handed to TCP's receive function?" starts in IP, not in TCP).
 */
export function destinationTerms(question: Pick<ParsedQuestion, "text" | "names">): Set<string> {
  const matches = [...question.text.matchAll(DESTINATION)];
  const last = matches.at(-1);
  if (last?.index === undefined) return new Set();
  // Only a phrase that ends the question: "passed to subscribe() throws …, where …" names an argument's way, not the path's end.
  const phrase = question.text.slice(last.index + last[0].length).replace(/[?.!\s]+$/, "");
  if (CLAUSE_END.test(phrase)) return new Set();
  const before = new Set(questionTokens(question.text.slice(0, last.index), question.names).map((t) => t.term));
  return new Set(questionTokens(phrase, question.names).map((t) => t.term).filter((t) => !before.has(t)));
}

/**
 * A verb of setting things up (registering, mocking, declaring, wrapping, setting with): a name written after
 * it, in its clause, is how the user set things up when the clause says who did ("I registered
 * http.get(…)", "My extension registers a custom node with app.add_node(…)", "If I declare … ws.link(…)"); so
 * is a name after any participle with "with" ("one an extension registered with app.add_source_parser", "a
 * callback wrapped with server.boundary()", PARTICIPLE_WITH) when no auxiliary makes it the behaviour asked
 * ("how does it get registered with the input core", "how is a socket created with socket()").
 */
const CONFIGURING = /\b(?:register(?:s|ed)?|mock(?:s|ed)?|declar(?:e|es|ed)|wrap(?:s|ped)?|sets?(?: up)?)\b/gi;
/**
 * A past participle with "with" (`registered with`, `created with`, `started with`, `built with`): the name
 * after it says how the thing the question is about was made ("a POSIX timer created with timer_create()",
 * "an object created with observable({...})", "a command started with exec_command"), not where its path runs.
 */
const PARTICIPLE_WITH = /\b(?:[a-z]{2,}ed|set(?: up)?|built|made|written|given|taken|begun)\s+with\b/gi;
/**
 * A clause saying a call is over ("After exec_command returns, how does stdout.read() …", "once connect()
 * has completed"; at most four words before the verb, so not "after gcTime and end up calling the cleanup
 * function my sync returned"): what it names has run to its end before the path asked about begins, so it
 * is how things were set up, not a step of that path.
 */
const DONE_CLAUSE = /\b(?:after|once)\s+(?:[\w$.]+(?:\([^()]*\))?\s+){1,4}?(?:returns|returned|has returned|completes|completed|has completed|finishes|finished|has finished|is done)\b/gi;
/** "I" as written (not the "i" of "i.MX"), "we", "my", "our". */
const FIRST_PERSON = /\bI\b|\b(?:[Ww]e|[Mm]y|[Oo]ur)\b/;
const AUXILIARY = /\b(?:gets?|got|getting|is|are|was|were|be|been|being)\s*$/i;
/** A leading phrase of a preposition that holds "with" ("With setupServer() in my tests", "In the browser with setupWorker()"). */
const LEADING_WITH = /^\s*(?:with|in|on|using|under|inside|for)\b.*\bwith\b|^\s*with\b/i;
/** A "when" or "if" clause: what sets the question's path off. */
const TRIGGER = /\b(?:when|whenever|if)\b/i;
/** Where a clause begins: after a comma, semicolon, colon, dash, question or exclamation mark, or a full stop (and before a "when" or "if"). */
const CLAUSE_BREAK = /[,;:?!—]|\.\s|\b(?:when|whenever|if)\b/gi;

/**
 * Where the clause holding `from` ends: a comma, semicolon, colon, dash, question or exclamation mark, or a
 * full stop, outside brackets; or the bracket closing one it is in ("(… one set with app.set_translator)").
 */
function clauseEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i] as string;
    if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch) && --depth < 0) return i;
    else if (depth === 0 && (",;:?!—".includes(ch) || (ch === "." && /\s/.test(text[i + 1] ?? " ")))) return i;
  }
  return text.length;
}

/** Where the clause holding `at` begins (the last clause break before it). */
function clauseStart(text: string, at: number): number {
  let start = 0;
  for (const m of text.slice(0, at).matchAll(CLAUSE_BREAK)) start = m.index + (/^[a-z]/i.test(m[0]) ? 0 : m[0].length);
  return start;
}

/**
 * The spans of the text that say how the user set things up: from a CONFIGURING verb to its clause's end, a
 * DONE_CLAUSE to its clause's end, and
 * a leading prepositional phrase holding "with" (not a sentence of its own: "I created an Editor with a
 * custom node extension …" says what the path reads) when a "when" or "if" clause after it says what sets the path off
 * ("With setupServer() in my tests, when my code fetches …", "In the browser with setupWorker(), if my
 * resolver throws …").
 */
function settingSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const first = clauseEnd(text, 0);
  if (first < text.length && LEADING_WITH.test(text.slice(0, first)) && TRIGGER.test(text.slice(first))) spans.push([0, first]);
  for (const m of text.matchAll(CONFIGURING)) {
    if (FIRST_PERSON.test(text.slice(clauseStart(text, m.index), m.index))) spans.push([m.index, clauseEnd(text, m.index)]);
  }
  for (const m of text.matchAll(DONE_CLAUSE)) spans.push([m.index, clauseEnd(text, m.index)]);
  for (const m of text.matchAll(PARTICIPLE_WITH)) {
    if (!AUXILIARY.test(text.slice(clauseStart(text, m.index), m.index))) spans.push([m.index, clauseEnd(text, m.index)]);
  }
  return spans;
}

/**
 * The terms of the code names the question writes only for how the user set things up (settingSpans): that
 * is configuration, not where the path runs (the path is what the code later does with what was
 * registered). They name no start (named-start.ts) and weigh as a destination's when choosing one
 * (entry-round.ts); coverage counts them whole. The name's whole term, and those of its words the question
 * does not also write elsewhere.
 */
export function settingTerms(question: Pick<ParsedQuestion, "text" | "names">): ReadonlySet<string> {
  const known = settingCache.get(question.text);
  if (known) return known;
  const found = findSettingTerms(question);
  if (settingCache.size >= SETTING_CACHE_SIZE) settingCache.delete(settingCache.keys().next().value as string);
  settingCache.set(question.text, found);
  return found;
}

/** Each candidate of a question asks (named-start.ts): the answer, by the question's text, for the last few questions. */
const settingCache = new Map<string, ReadonlySet<string>>();
const SETTING_CACHE_SIZE = 64;

function findSettingTerms(question: Pick<ParsedQuestion, "text" | "names">): ReadonlySet<string> {
  const spans = settingSpans(question.text);
  const out = new Set<string>();
  if (spans.length === 0) return out;
  const inside = (at: number) => spans.some(([a, b]) => at >= a && at < b);
  let outside = "";
  for (let i = 0; i < question.text.length; i++) outside += inside(i) ? " " : question.text[i];
  const kept = new Set(questionTokens(outside, question.names).map((t) => t.term));
  for (const name of question.names) {
    const bare = name.replace(/\(\)$/, "");
    const at = [...question.text.matchAll(new RegExp(`(?<![\\w$.])${escapeRegExp(bare)}(?![\\w$])`, "g"))].map((m) => m.index);
    if (at.length === 0 || !at.every(inside)) continue;
    out.add(wholeNameTerm(name));
    for (const t of questionTokens(bare, question.names)) if (!kept.has(t.term)) out.add(t.term);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
