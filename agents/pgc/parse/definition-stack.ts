// Tracks which definitions enclose the current position while query captures arrive in source order.
import type { Node } from "web-tree-sitter";

export interface OpenDefinition {
  name: string;
  kind: "function" | "container";
  endIndex: number;
  node: Node;
  /** Names bound locally (parameters, local function pointers), filled lazily by the language. */
  locals?: ReadonlySet<string>;
}

export class DefinitionStack {
  private readonly open: OpenDefinition[] = [];

  /** Closes every definition that ends before `index`. */
  advanceTo(index: number): void {
    while (this.open.length > 0 && (this.open[this.open.length - 1]?.endIndex ?? 0) <= index) this.open.pop();
  }

  push(definition: OpenDefinition): void {
    this.open.push(definition);
  }

  /** The innermost open function, if any. */
  enclosingFunction(): OpenDefinition | null {
    for (let i = this.open.length - 1; i >= 0; i--) {
      const entry = this.open[i];
      if (entry?.kind === "function") return entry;
    }
    return null;
  }

  /** The names of open containers (namespaces, classes), outermost first. */
  containers(): string[] {
    return this.open.filter((entry) => entry.kind === "container").map((entry) => entry.name);
  }
}
