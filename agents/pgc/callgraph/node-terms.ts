// The terms of a function's description, field by field, as the relevance model reads them
// (agents/search/relevance.ts): its whole name, the struct fields it is stored into, the words of its name, its
// class, its file's name, its directories and its doc comment.
import type { FieldTerms } from "../../search/relevance.js";
import { tokenize } from "../retrieval/index.js";
import type { CodeSymbol } from "../types.js";

export type NodeFieldTerms = Required<Pick<FieldTerms, "symbol" | "bound" | "name" | "container" | "file" | "dir" | "doc" | "cased" | "uses">> & Pick<FieldTerms, "nested">;

const NO_USES: ReadonlySet<string> = new Set();

/** Directory names that say where code sits, not what it does. */
const PLACE_DIRS = new Set(["src", "lib", "internal", "include", "linux", "pkg", "packages", "source"]);

const memo = new Map<string, ReadonlySet<string>>();

/** Tokenized once per distinct text: thousands of functions share a file and a directory. */
function termsOf(text: string): ReadonlySet<string> {
  let terms = memo.get(text);
  if (!terms) {
    terms = new Set(tokenize(text));
    memo.set(text, terms);
  }
  return terms;
}

/** The file's name without its extension (`e1000_main`), and the directories above it (`drivers net ethernet intel e1000`). */
export function pathTerms(path: string): { file: ReadonlySet<string>; dir: ReadonlySet<string> } {
  const parts = path.split("/");
  const file = (parts.pop() ?? "").replace(/\.[^.]+$/, "");
  return { file: termsOf(file), dir: termsOf(parts.filter((p) => !PLACE_DIRS.has(p)).join(" ")) };
}

export function fieldTermsOf(symbol: CodeSymbol): NodeFieldTerms {
  const { file, dir } = pathTerms(symbol.file_path);
  return {
    symbol: new Set([symbol.name.toLowerCase(), ...(symbol.also_named ? [symbol.also_named.toLowerCase()] : [])]),
    cased: new Set([symbol.name, ...(symbol.also_named ? [symbol.also_named] : [])]),
    uses: symbol.uses ? new Set(symbol.uses.map((u) => u.toLowerCase())) : NO_USES,
    bound: NO_USES,
    name: symbol.also_named ? new Set([...termsOf(symbol.name), ...termsOf(symbol.also_named)]) : termsOf(symbol.name),
    container: termsOf(symbol.container ?? ""),
    file,
    dir,
    doc: new Set(tokenize(docProse(symbol.doc).slice(0, 400))),
  };
}

/**
 * A doc comment without its code examples — fenced blocks, a JSDoc `@example` up to the next tag, Python's
 * `>>>` and `...` lines, reStructuredText's literal blocks (the lines indented under one ending in `::` or a
 * `.. code-block::` directive) —: their words are the example's (`for await (const item of
 * client.files.list())` in every list method of an SDK), not what the function does.
 */
export function docProse(doc: string): string {
  return withoutLiteralBlocks(doc)
    .replace(/```[\s\S]*?(?:```|$)/g, " ")
    .replace(/@example\b[\s\S]*?(?=\n\s*\*?\s*@[A-Za-z]|$)/g, " ")
    .replace(/^\s*(?:>>>|\.\.\.)(?:\s.*)?$/gm, " ");
}

const CODE_DIRECTIVE = /^\s*\.\.\s+(?:code-block|sourcecode|code)::/;

/** reStructuredText's literal blocks left out: what is indented under a line ending in `::`, or under a code directive (which goes too). */
function withoutLiteralBlocks(doc: string): string {
  if (!doc.includes("::")) return doc;
  const out: string[] = [];
  let under = -1;
  for (const line of doc.split("\n")) {
    const indent = line.search(/\S/);
    if (under >= 0 && (indent < 0 || indent > under)) continue;
    under = -1;
    if (CODE_DIRECTIVE.test(line)) under = indent;
    else {
      out.push(line);
      if (/::\s*$/.test(line)) under = indent;
    }
  }
  return out.join("\n");
}

/**
 * A C function stored into struct fields (`.read = spidev_read`) is called by those fields' names
 * (`file->f_op->read(…)`): the names a caller through the field, and a question saying "a program calls
 * read()", give it. The scope's bindings are known once its graph is linked.
 */
export function withBoundNames(terms: NodeFieldTerms, fields: readonly string[]): NodeFieldTerms {
  return fields.length === 0 ? terms : { ...terms, bound: new Set(fields.map((f) => f.toLowerCase())) };
}
