// The scope's entry points for a question without scoring every function: an inverted index from each
// word of the nodes' descriptions (name, class, file, directories, doc) to the nodes holding it. A question
// term is compared once with each distinct word, which gives every node an upper bound of its relevance;
// nodes are then scored exactly (relevance.ts) in the order of that bound until no bound can beat the
// k-th exact score. Same answer as scoring every node, at a fraction of the cost on a 40,000-line scope.
import type { SearchQuestion } from "../../protocol/index.js";
import { CODE_USE_STRENGTH, FIELD_STRENGTH, matchTerms, matchWord, MIN_PREFIX_TERM, MIN_SPELLING_AFFIX, relevance, writtenIdentifiers, type Field, type TermMatch } from "../../search/relevance.js";
import type { QuestionTerm } from "../../search/question.js";
import type { CallGraph, GraphNode } from "./call-graph.js";

const INDEXED_FIELDS = ["symbol", "name", "bound", "container", "file", "dir", "doc"] as const satisfies readonly Field[];

export interface ScoredNode {
  node: GraphNode;
  matches: TermMatch[];
  score: number;
}

/** The nodes whose bodies use a word whole (the scope's lexical index knows; the entry index keeps no bodies); a node may be listed twice. */
export type UsedBy = (word: string) => readonly GraphNode[];

export class EntryIndex {
  /** word → (node id, field strength) for every indexed field holding it. */
  private readonly postings = new Map<string, { node: number; strength: number }[]>();
  /** The vocabulary (the postings' words) for substring search: `\n` + each word + `\n`, in one string. */
  private vocabulary: Vocabulary | undefined;

  constructor(
    private readonly graph: CallGraph,
    private readonly usedBy: UsedBy = () => [],
  ) {
    for (const node of graph.nodes) {
      // The import it stands in for is the code that runs (`except ImportError: def SOCKSProxyManager(…)`), as
      // the definition elsewhere is for a C stand-in of a configuration option that is off.
      if (node.fallback || node.config_stub) continue;
      for (const field of INDEXED_FIELDS) {
        for (const word of node.terms[field]) {
          let list = this.postings.get(word);
          if (!list) this.postings.set(word, (list = []));
          list.push({ node: node.id, strength: FIELD_STRENGTH[field] });
        }
      }
    }
  }

  /**
   * The best `topK` nodes for the question, in `order`, and per term how many nodes match it. Exact: a node
   * is skipped only when its upper bound is below the k-th exact score already found.
   */
  search(question: SearchQuestion, topK: number, order: (a: ScoredNode, b: ScoredNode) => number): { best: ScoredNode[]; df: Record<string, number> } {
    const total = question.terms.reduce((sum, t) => sum + t.weight, 0);
    const bound = new Map<number, number>();
    const df: Record<string, number> = {};
    // A compound identifier the question writes (`responseSchema`) also finds the functions whose bodies use it.
    const identifiers = writtenIdentifiers(question);
    const uses = new Map<number, Set<string>>();
    for (const term of question.terms) {
      const strongest = new Map<number, number>();
      const dot = term.term.lastIndexOf(".");
      if (dot > 0) {
        // A qualified name (`collection.update`) matches a whole name only: the symbol field's postings of its last part.
        for (const p of this.postings.get(term.term.slice(dot + 1)) ?? []) if (p.strength >= FIELD_STRENGTH.symbol) strongest.set(p.node, p.strength);
      } else {
        this.vocabulary ??= new Vocabulary(this.postings);
        // The words that may match the term by some rule of matchWord, each judged by it. A compound
        // identifier the question writes is matched only whole or by its closed forms, as relevance.ts
        // scores it (`crypto` is no match of `crypto_alloc_skcipher`): counted by matchWord's prefix rule,
        // every `crypto_*` function made the name common, and its weight (withRarity) a fifth of its own.
        const written = identifiers.has(term.term);
        for (const word of written ? [term.term, ...term.forms].filter((w) => this.postings.has(w)) : this.vocabulary.candidates(term)) {
          const quality = written ? 1 : matchWord(term, word);
          if (quality === 0) continue;
          for (const p of this.postings.get(word) ?? []) if (p.strength * quality > (strongest.get(p.node) ?? 0)) strongest.set(p.node, p.strength * quality);
        }
      }
      if (identifiers.has(term.term)) {
        for (const node of this.usedBy(term.term)) {
          uses.set(node.id, (uses.get(node.id) ?? new Set()).add(term.term));
          if (CODE_USE_STRENGTH > (strongest.get(node.id) ?? 0)) strongest.set(node.id, CODE_USE_STRENGTH);
        }
      }
      df[term.term] = strongest.size;
      for (const [node, strength] of strongest) bound.set(node, (bound.get(node) ?? 0) + (term.weight * strength) / (total || 1));
    }
    const ranked = [...bound].sort((a, b) => b[1] - a[1]);
    const best: ScoredNode[] = [];
    for (const [id, upper] of ranked) {
      const kth = best.length >= topK ? (best[topK - 1] as ScoredNode).score : -1;
      if (upper < kth - 1e-12) break;
      const node = this.graph.nodes[id] as GraphNode;
      if (node.fallback || node.config_stub) continue;
      const used = uses.get(id);
      const matches = matchTerms(question, used ? { ...node.terms, body: used } : node.terms);
      if (matches.length === 0) continue;
      const score = relevance(question, matches);
      // Below the k-th exactly: it would sort past the end (`order` ranks by score first).
      if (best.length >= topK && score < kth) continue;
      // Into its place (after the equals, as a stable sort would put it): the list stays sorted.
      const scored: ScoredNode = { node, matches, score };
      let at = best.length;
      while (at > 0 && order(scored, best[at - 1] as ScoredNode) < 0) at--;
      best.splice(at, 0, scored);
      if (best.length > topK) best.length = topK;
    }
    return { best, df };
  }
}

/**
 * A scope's words, for finding the few a question term may match without comparing it with all of them
 * (tens of thousands on a large scope, for each term of each question). matchWord matches a word that
 * is a spelling of the term, holds one (a prefix, an inner part, a code spelling at either end), or is
 * the start of one: `candidates` returns every word of the first two kinds by substring search in one
 * string of the vocabulary, and those of the last by looking up the spelling's prefixes. A superset of
 * the words matchWord matches (it judges each), in vocabulary order, so the search's answer is unchanged.
 */
export class Vocabulary {
  private readonly text: string;

  /** The words: a set of them, or a map keyed by them (the entry index's postings, not copied). */
  constructor(private readonly words: Pick<ReadonlySet<string>, "has" | "keys">) {
    this.text = `\n${[...words.keys()].join("\n")}\n`;
  }

  candidates(term: Pick<QuestionTerm, "term" | "forms">): string[] {
    const found = new Set<string>();
    for (const spelling of [term.term, ...term.forms]) {
      if (this.words.has(spelling)) found.add(spelling);
      // A word that is the start of the term: "pars" of "parser" (no rule matches one shorter than
      // MIN_PREFIX_TERM, nor the start of one of its forms).
      for (let length = MIN_PREFIX_TERM; spelling === term.term && length < spelling.length; length++) {
        const prefix = spelling.slice(0, length);
        if (this.words.has(prefix)) found.add(prefix);
      }
      // Words holding the spelling anywhere (one of the shortest code spellings, `tx`, only as a whole word).
      if (spelling.length < MIN_SPELLING_AFFIX || spelling.includes("\n")) continue;
      for (let at = this.text.indexOf(spelling); at !== -1; ) {
        const start = this.text.lastIndexOf("\n", at) + 1;
        const end = this.text.indexOf("\n", at);
        found.add(this.text.slice(start, end));
        at = this.text.indexOf(spelling, end);
      }
    }
    return [...found];
  }
}
