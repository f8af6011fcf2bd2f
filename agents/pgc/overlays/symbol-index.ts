// Symbols of a scope by name, for finding where a callee is defined.
import type { CodeSymbol } from "../types.js";

const CALLABLE_FIRST: Readonly<Record<string, number>> = { function: 0, method: 1, macro: 2 };

export class SymbolIndex {
  private readonly byName = new Map<string, CodeSymbol[]>();

  constructor(symbols: Iterable<CodeSymbol>) {
    for (const symbol of symbols) {
      const list = this.byName.get(symbol.name) ?? [];
      list.push(symbol);
      this.byName.set(symbol.name, list);
    }
    for (const list of this.byName.values()) list.sort((a, b) => (CALLABLE_FIRST[a.kind] ?? 3) - (CALLABLE_FIRST[b.kind] ?? 3));
  }

  /** The definition a call most likely reaches: plain names directly, member calls by their last segment. */
  definitionOf(callee: string, plain: boolean): CodeSymbol | undefined {
    if (plain) return this.byName.get(callee)?.[0];
    const member = /[\w$]+$/.exec(callee)?.[0];
    return member ? this.byName.get(member)?.find((symbol) => symbol.kind === "method") : undefined;
  }

  all(name: string): readonly CodeSymbol[] {
    return this.byName.get(name) ?? [];
  }
}
