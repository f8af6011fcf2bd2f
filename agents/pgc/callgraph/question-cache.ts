// One question reaches a worker in several requests — its entry, an expansion per exit the manager follows,
// a callers request per step of a climb — each decoded from the wire into new objects. The scoring's memos
// (each term's word matches, word-match.ts; each node's and each exit's matches, local-search.ts) are keyed
// by the question's objects, so every request began them anew: on c-linux-fs, matching terms to words was
// a quarter of the workers' CPU. Interned here by content, the requests of one question share them; a
// question differing in anything (another term, weight or name) is another question.
import type { SearchQuestion } from "../../protocol/index.js";
import type { CallGraph, GraphNode } from "./call-graph.js";
import { exitMatcher, nodeMatcher, type ExitMatcher, type NodeMatcher } from "./local-search.js";

/** Questions kept: those in flight on a worker at once, with room to spare; the oldest used is dropped. */
export const MAX_INTERNED_QUESTIONS = 8;

export interface InternedQuestion {
  question: SearchQuestion;
  node: NodeMatcher;
  exit: ExitMatcher;
}

export class QuestionCache {
  private readonly byKey = new Map<string, InternedQuestion>();

  constructor(
    private readonly graph: CallGraph,
    private readonly bodyTermsOf: (node: GraphNode) => ReadonlySet<string>,
  ) {}

  /** The interned question equal to `question`, with its matchers; a new one when none is. */
  get(question: SearchQuestion): InternedQuestion {
    const key = JSON.stringify(question);
    let known = this.byKey.get(key);
    if (known) {
      // Most recently used last: the first key is the one to drop.
      this.byKey.delete(key);
    } else {
      known = { question, node: nodeMatcher(question, this.bodyTermsOf, this.graph), exit: exitMatcher(question) };
      if (this.byKey.size >= MAX_INTERNED_QUESTIONS) this.byKey.delete(this.byKey.keys().next().value as string);
    }
    this.byKey.set(key, known);
    return known;
  }

  get size(): number {
    return this.byKey.size;
  }
}
