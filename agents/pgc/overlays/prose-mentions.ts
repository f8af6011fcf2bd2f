// Where the scope's prose (READMEs, docs, module docs) first mentions a name: by the identifiers it
// contains, or, for a name common words could collide with, written as code (`name(` or `` `name` ``).
// The written forms are looked up in tables made in one pass over the prose for the name lengths asked
// about, instead of searching every prose document for every name.
import type { IndexDoc } from "../types.js";

const BACKTICK = 96;
const OPEN_PAREN = 40;

export class ProseMentions {
  /** Each identifier of the prose → the first document containing it. */
  private readonly words = new Map<string, IndexDoc>();
  /** Each text that stands before a "(" (of a length asked about) → the first document number. */
  private readonly called = new Map<string, number>();
  /** Each text between backticks (of a length asked about) → the first document number. */
  private readonly quoted = new Map<string, number>();

  /** `prose` in scope order; `codeNames` are the names that will be asked for in written form. */
  constructor(private readonly prose: readonly IndexDoc[], codeNames: Iterable<string>) {
    for (const doc of prose) {
      for (const match of `${doc.fields.body ?? ""}\n${doc.fields.doc ?? ""}`.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
        if (!this.words.has(match[0])) this.words.set(match[0], doc);
      }
    }
    const lengths = [...new Set([...codeNames].map((name) => name.length))].filter((n) => n > 0);
    prose.forEach((doc, d) => this.scanBody(doc.fields.body ?? "", d, lengths));
  }

  /** The first prose document containing `word` as an identifier. */
  word(word: string): IndexDoc | undefined {
    return this.words.get(word);
  }

  /** The first prose document whose body holds `name(` or `` `name` `` (for a name given to the constructor). */
  written(name: string): IndexDoc | undefined {
    const first = Math.min(this.called.get(name) ?? Infinity, this.quoted.get(name) ?? Infinity);
    return Number.isFinite(first) ? this.prose[first] : undefined;
  }

  private scanBody(body: string, d: number, lengths: readonly number[]): void {
    for (let k = 0; k < body.length; k++) {
      const c = body.charCodeAt(k);
      if (c !== OPEN_PAREN && c !== BACKTICK) continue;
      for (const n of lengths) {
        if (n > k) continue;
        if (c === OPEN_PAREN) remember(this.called, body.slice(k - n, k), d);
        else if (n < k && body.charCodeAt(k - n - 1) === BACKTICK) remember(this.quoted, body.slice(k - n, k), d);
      }
    }
  }
}

function remember(map: Map<string, number>, text: string, d: number): void {
  if (!map.has(text)) map.set(text, d);
}
