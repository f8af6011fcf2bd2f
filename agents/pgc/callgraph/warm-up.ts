// A worker's first questions ran two to three times slower than the same questions later (c-linux-fs:
// a question's wall time 310–520 ms the first time, 100–200 ms the third; BENCHMARKS.md): the search's
// code was not compiled yet, and every function a path reached had its body tokenized on first use. Once
// the worker is ready, the warm-up does that work before a user asks: the entry index, every body's terms,
// then a few questions made from the scope's own code through `entry`, `expand` and `callers`, whose
// answers are dropped. It runs in slices, yielding to the event loop between them, so a request arriving
// meanwhile is served at once; and nothing it leaves behind depends on its questions (the body terms are
// each function's own; the questions it interned, with their memos, are dropped when it ends), so a warmed
// scope answers exactly as a cold one.
import { parseQuestion, type ParsedQuestion } from "../../search/question.js";
import type { CallGraph, GraphNode } from "./call-graph.js";

/** Questions the warm-up asks: enough to compile the search's paths (forward, callers, entry) for each kind of start. */
export const WARM_QUESTIONS = 3;
/** A slice of the warm-up runs at most about this long before it yields to the event loop. */
export const WARM_SLICE_MS = 8;

/** What a warm-up did: bodies tokenized, questions asked, and how long it took (wall, with its yields). */
export interface WarmUpStats {
  bodies: number;
  questions: number;
  ms: number;
}

export interface WarmQuestion {
  question: ParsedQuestion;
  /** The function the question is about: a forward expansion starts there. */
  from: GraphNode;
  /** A function it calls in the scope: its callers are asked for. */
  callee: GraphNode | null;
}

/**
 * Questions about the scope's busiest functions (most calls inside the scope), one per file: "How does
 * `ext4_file_write_iter` reach `ext4_dio_write_iter`?" — the shape of a user's question, made only of the
 * scope's own names, so the same code runs as for a real one.
 */
export function warmQuestions(graph: CallGraph, count = WARM_QUESTIONS): WarmQuestion[] {
  const hubs = graph.nodes
    .filter((n) => n.kind !== "class" && graph.callsOf(n.id).length > 0)
    .map((n) => ({ node: n, calls: graph.callsOf(n.id).length }))
    .sort((a, b) => b.calls - a.calls || a.node.file_path.localeCompare(b.node.file_path) || a.node.line_start - b.node.line_start);
  const files = new Set<string>();
  const out: WarmQuestion[] = [];
  for (const { node } of hubs) {
    if (out.length >= count) break;
    if (files.has(node.file_path)) continue;
    files.add(node.file_path);
    const calleeId = graph.callsOf(node.id).find((edge) => edge.to !== node.id)?.to;
    const callee = calleeId === undefined ? null : (graph.nodes[calleeId] ?? null);
    const text = callee ? `How does \`${node.name}\` reach \`${callee.name}\`?` : `How does \`${node.name}\` work?`;
    out.push({ question: parseQuestion(text), from: node, callee });
  }
  return out;
}

/** Runs `work` over `items` in slices of about `sliceMs`, yielding to the event loop between them; stops early when `stopped()` says so. Resolves with the items done. */
export async function inSlices<T>(items: Iterable<T>, work: (item: T) => void | Promise<void>, stopped: () => boolean = () => false, sliceMs = WARM_SLICE_MS): Promise<number> {
  let done = 0;
  let sliceStart = performance.now();
  for (const item of items) {
    if (stopped()) break;
    await work(item);
    done++;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return done;
}
