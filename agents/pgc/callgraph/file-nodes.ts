// The call graph's nodes by file, in line order: what finds the function a call line sits in.
import type { GraphNode } from "./graph-types.js";

export class FileNodes {
  /** A file → the ids of its nodes, by first line. */
  readonly byFile = new Map<string, number[]>();

  constructor(private readonly nodes: readonly GraphNode[]) {
    for (const node of nodes) {
      const ids = this.byFile.get(node.file_path);
      if (ids) ids.push(node.id);
      else this.byFile.set(node.file_path, [node.id]);
    }
    for (const ids of this.byFile.values()) ids.sort((a, b) => (nodes[a] as GraphNode).line_start - (nodes[b] as GraphNode).line_start);
  }

  /** The innermost node (not a class) whose lines hold `line` of `file`. */
  enclosing(file: string, line: number): GraphNode | null {
    let best: GraphNode | null = null;
    for (const id of this.byFile.get(file) ?? []) {
      const node = this.nodes[id] as GraphNode;
      if (node.line_start > line) break;
      if (node.line_end >= line && node.kind !== "class" && (!best || node.line_start >= best.line_start)) best = node;
    }
    return best;
  }
}
