// Where a chain begins when the question names it: a first step whose whole name the question writes as
// code has no climb above it, and a chain passing through the function the question names first is cut to
// begin there (climb-callers.ts asks both before climbing).
import type { SearchStep } from "../../protocol/index.js";
import { lastPart, OUTSIDE_ACTOR_WORDS, QUALIFIED, type ParsedQuestion } from "../../search/question.js";
import { destinationTerms, settingTerms } from "../../search/question-roles.js";
import { cover, coverageShare, FIELD_STRENGTH, type Coverage, type TermMatch } from "../../search/relevance.js";
import type { ChainStep, TraceOutcome, TracedHop } from "./trace-chain.js";

/** The search step a chain step was made of. */
export function searchStepOf(hops: readonly TracedHop[], step: ChainStep): SearchStep | undefined {
  for (const hop of hops) {
    const found = hop.result.steps.find((s) => s.file_path === step.file_path && s.cite.line_start === step.line_start && s.qualified === step.symbol);
    if (found) return found;
  }
  return undefined;
}

/**
 * The question writes the step's whole name as code (`How does e1000_setup_ring allocate…`): it says where the
 * chain begins. Not a name it writes only for how the user set things up ("registered with app.add_node(…)").
 */
export function namedByQuestion(question: Pick<ParsedQuestion, "terms" | "text" | "names">, matches: readonly TermMatch[]): boolean {
  const setting = settingTerms(question);
  const lastParts = qualifiedLastParts(question);
  return matches.some((m) => m.field === "symbol" && !setting.has(m.term) && !lastParts.has(m.term) && !ownedElsewhere(m) && question.terms.some((t) => t.term === m.term && t.name));
}

/**
 * A qualified name matched by a function whose class, file and directory are not the owner it writes
 * (`ws.link` by `graphql.link`, `package.json` by `HttpResponse.json`: relevance.ts, qualifiedMatch) names
 * another thing of that name. An owner of no words (`self.flush()`, `this.render()`) is the place's own.
 */
function ownedElsewhere(m: TermMatch): boolean {
  const dot = m.term.lastIndexOf(".");
  return dot > 0 && m.strength < FIELD_STRENGTH.symbol && !SELF_OWNER.test(m.term.slice(0, dot));
}

const SELF_OWNER = /^(?:self|this|cls|super)$/;

/**
 * The last parts of the qualified names the question writes (`link` of `ws.link`, `json` of `package.json`):
 * the whole name says which function it means, so its last part alone names none.
 */
function qualifiedLastParts(question: Pick<ParsedQuestion, "names">): Set<string> {
  return new Set(question.names.filter((n) => QUALIFIED.test(n)).map((n) => lastPart(n).replace(/\(\)$/, "").toLowerCase()));
}

/**
 * Whether a place's matches name the function the question writes first, as code (`loop.create_connection`
 * in "How does asyncio's loop.create_connection connect …"): where the question says its path begins. Only
 * the first name does ("interval() … all the way down to setInterval" ends at the second), and not when it
 * is where the question says the path ends, nor a name it writes only for how the user set things up
 * (settingTerms). Null when the question writes no such name.
 */
export function firstNamed(question: Pick<ParsedQuestion, "terms" | "names" | "text">): ((matches: readonly TermMatch[]) => boolean) | null {
  const setting = settingTerms(question);
  const first = question.names.map((n) => n.replace(/\(\)$/, "").toLowerCase()).find((n) => !setting.has(n) && !setting.has(lastPart(n)));
  if (first === undefined || destinationTerms(question).has(first)) return null;
  return namesFunction(question, first);
}

/** Whether a place's matches name the function `name` (lowercased, as the question writes it) by its whole name. */
function namesFunction(question: Pick<ParsedQuestion, "terms" | "names">, name: string): (matches: readonly TermMatch[]) => boolean {
  const lastParts = qualifiedLastParts(question);
  return (matches) => matches.some((m) => m.field === "symbol" && !ownedElsewhere(m) && !(name !== m.term && lastParts.has(m.term)) && (name === m.term || name.endsWith(`.${m.term}`)) && question.terms.some((t) => t.term === m.term && t.name));
}

/**
 * The function a "when" or "if" clause says the user calls ("When my driver calls crypto_alloc_skcipher(…)",
 * "If I call sftp.get() …", "when user code calls configureStore"): the path the question asks about
 * begins there. Of the 29 such "how" questions of the grounding benchmark (2026-11-28, 400 questions), the
 * gold chain begins at the function so called in 25 (not in: `connect()` and two `read()`s, system calls
 * that `l2cap_sock_connect`, `spidev_read` and `i2cdev_read` implement; `createApi`, a value built by
 * `buildCreateApi`). "After I call X, …" is
 * not such a clause: what follows may be what X set going. Null when the question has none.
 */
export function userCalled(question: Pick<ParsedQuestion, "terms" | "names" | "text">): ((matches: readonly TermMatch[]) => boolean) | null {
  const aside = new Set([...settingTerms(question), ...destinationTerms(question)]);
  for (const m of question.text.matchAll(USER_CALL)) {
    const after = question.text.slice(m.index + m[0].length);
    const name = question.names.find((n) => after.startsWith(n) || after.startsWith(`\`${n}`));
    if (name === undefined) continue;
    const whole = name.replace(/\(\)$/, "").toLowerCase();
    if (aside.has(whole)) continue;
    return namesFunction(question, whole);
  }
  return null;
}

/** "when I call", "if my driver calls", "whenever user code invokes", "when a tool calls" (question.ts's outside actors): the user calling a function of the code base. */
const USER_CALL = new RegExp(String.raw`\b(?:when|if|whenever)\s+(?:I|we|(?:my|our)\s+[\w-]+|user code|${OUTSIDE_ACTOR_WORDS})\s+(?:calls?|invokes?)\s+`, "gi");

/**
 * A chain passing through a function the question writes as code (`loop.create_connection`, reached from
 * `open_connection`) begins there, as a first step so named has no climb above it: the steps before it
 * are left out, with the hops that held only them. Null when no later step is so named.
 */
export function fromNamedStep(question: Pick<ParsedQuestion, "terms" | "names" | "text">, outcome: TraceOutcome): TraceOutcome | null {
  const namesFirst = firstNamed(question);
  if (!namesFirst) return null;
  const named = (s: ChainStep) => s.kind !== "class" && namesFirst(searchStepOf(outcome.hops, s)?.matches ?? []);
  // A chain already beginning at a function of that name (`ZodObject.extend` before core's `extend`) keeps its beginning.
  if (outcome.steps[0] && named(outcome.steps[0])) return null;
  const at = outcome.steps.findIndex((s, i) => i > 0 && named(s));
  if (at < 0) return null;
  const begins = outcome.steps[at] as ChainStep;
  const dropped = outcome.steps.slice(0, at);
  const begin: ChainStep = { ...begins, role: "entry", call_site: null };
  const h = outcome.hops.findIndex((hop) => hop.steps.includes(begins));
  const hops = outcome.hops.slice(h).map((hop, i) => (i === 0 ? { ...hop, steps: [begin, ...hop.steps.slice(hop.steps.indexOf(begins) + 1)] } : hop));
  const steps = [begin, ...outcome.steps.slice(at + 1)];
  let covered: Coverage = new Map();
  for (const step of steps) covered = cover(covered, searchStepOf(outcome.hops, step)?.matches ?? []);
  const detail = `began at ${begins.symbol}: the question names it (the chain from ${dropped[0]?.symbol} reached it; ${dropped.map((d) => d.symbol).join(", ")} left out)`;
  return { ...outcome, steps, hops, coverage: coverageShare(question, covered), decisions: [...outcome.decisions, { at: "start", detail }] };
}
