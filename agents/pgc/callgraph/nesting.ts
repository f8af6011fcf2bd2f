// Which functions a function defines in its body (PGC.md, "The call graph"): closures, and the methods of the
// objects it builds. The call graph links each from its definer by a `defines` edge; a climb may go back along it.
import type { GraphNode, LocalEdge } from "./graph-types.js";

/**
 * A function defined inside another function's body (a closure the outer one returns, as factories do:
 * `createPacedMutations` returns its inner `mutate`; a decorator its `wrapper`) is where the outer one's
 * behaviour goes on: the call graph adds an edge `defines` from the innermost enclosing function or method to
 * it, at its first line (after the calls are linked). Nothing calls it there, so `callersOf` does not list
 * it. So is a method the outer one defines: of an object literal it returns (`coreModule = () => ({ init(…) {
 * … } })`: `coreModule.init`) or binds to a variable, or a function it assigns to a member
 * (`column.toggleSorting = (…) => …`). A nested function (not a method: that can be called through its
 * object) is marked `nested`: no other module can name it, nor a qualified name a question writes
 * (`engine.connect` is not create_engine's inner `connect`). `byFile` lists each file's node ids.
 */
export function nestings(nodes: readonly GraphNode[], byFile: ReadonlyMap<string, readonly number[]>): { parent: GraphNode; node: GraphNode }[] {
  const out: { parent: GraphNode; node: GraphNode }[] = [];
  const at = (id: number) => nodes[id] as GraphNode;
  for (const ids of byFile.values()) {
    // Outer first: by first line, then the longer one; a stack of the definitions still open.
    const sorted = [...ids].sort((a, b) => at(a).line_start - at(b).line_start || at(b).line_end - at(a).line_end);
    const open: GraphNode[] = [];
    for (const id of sorted) {
      const node = at(id);
      while (open.length > 0 && (open.at(-1) as GraphNode).line_end < node.line_start) open.pop();
      const parent = open.at(-1);
      const spansSame = parent !== undefined && parent.line_start === node.line_start && parent.line_end === node.line_end;
      const inFunction = parent !== undefined && !spansSame && (parent.kind === "function" || parent.kind === "method");
      if (inFunction && node.kind === "function") {
        node.nested = true;
        node.terms = { ...node.terms, nested: true };
      }
      if (inFunction && (node.kind === "function" || node.kind === "method")) out.push({ parent, node });
      if (!spansSame) open.push(node);
    }
  }
  return out;
}

/** Each nested function's definer: the function whose body defines it (its `defines` edge), with the line it is defined on. */
export function indexDefiners(nodes: readonly GraphNode[], out: ReadonlyMap<number, readonly LocalEdge[]>): Map<number, { node: GraphNode; line: number }> {
  const definers = new Map<number, { node: GraphNode; line: number }>();
  for (const [from, edges] of out) for (const e of edges) if (e.defines) definers.set(e.to, { node: nodes[from] as GraphNode, line: e.line });
  return definers;
}
