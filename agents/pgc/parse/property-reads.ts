// Reading a property runs its getter: `self.apparent_encoding` in `Response.text` calls the
// `@property def apparent_encoding(self)` of the same class, `this.size` a TS `get size()`. Reads through
// the object's own `self`/`this` of a property its class defines in the same file become calls at the
// reading line (callee `self.x` / `this.x`, so the call graph resolves them as it resolves `self.x()`).
import type { Node } from "web-tree-sitter";
import type { ExtractContext } from "./extract-context.js";
import { startLine } from "./node-text.js";

interface Read {
  cls: string;
  name: string;
  callee: string;
  line: number;
  caller: string;
}

export class PropertyReads {
  private readonly properties = new Set<string>();
  private readonly reads: Read[] = [];

  /** `cls` defines a property (getter) `name`. */
  define(cls: string, name: string): void {
    this.properties.add(`${cls}\0${name}`);
  }

  /**
   * `node` (`self.x`, `this.x`) is a read unless it is the function of a call (a call already) or the
   * target of an assignment (a setter, or a plain field).
   */
  note(ctx: ExtractContext, node: Node, receiver: string, name: string): void {
    const parent = node.parent;
    if (!parent) return;
    if ((parent.type === "call" || parent.type === "call_expression") && parent.childForFieldName("function")?.id === node.id) return;
    if (/assignment/.test(parent.type) && parent.childForFieldName("left")?.id === node.id) return;
    const cls = ctx.stack.containers().at(-1);
    const caller = ctx.caller();
    if (cls === undefined || caller === null) return;
    this.reads.push({ cls, name, callee: `${receiver}.${name}`, line: startLine(node), caller });
  }

  /** The reads of properties the file's classes define, as calls. */
  flush(ctx: ExtractContext): void {
    for (const read of this.reads) {
      if (!this.properties.has(`${read.cls}\0${read.name}`)) continue;
      ctx.out.calls.push({ callee: read.callee, caller: read.caller, file_path: ctx.path, line: read.line, plain: false, local: false });
    }
  }
}

/** Python decorators that make a method a property. */
export const PROPERTY_DECORATOR = /^@(?:\w+\.)*(?:property|cached_property)\s*$/;
