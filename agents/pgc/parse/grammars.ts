// Tree-sitter grammars: the wasm runtime is initialised once and each grammar loaded once, lazily.
import { createRequire } from "node:module";
import { Language as TreeSitterLanguage, Parser } from "web-tree-sitter";
import type { Language } from "../types.js";

export type CodeLanguage = Exclude<Language, "text">;

const GRAMMAR_FILES: Readonly<Record<CodeLanguage, string>> = {
  c: "tree-sitter-c.wasm",
  cpp: "tree-sitter-cpp.wasm",
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  javascript: "tree-sitter-javascript.wasm",
  python: "tree-sitter-python.wasm",
};

/** A grammar with the one parser that is reused for every file of its language. */
export interface LoadedGrammar {
  name: CodeLanguage;
  language: TreeSitterLanguage;
  parser: Parser;
}

/** A grammar's wasm could not be found or loaded; nothing in this process will fix that. */
export class GrammarLoadError extends Error {
  override readonly name = "GrammarLoadError";
  readonly code = "grammar_load_failed";
  readonly retryable = false;

  constructor(language: string, options?: { cause?: unknown }) {
    super(`cannot load the tree-sitter grammar for ${language}`, options);
  }
}

const requireFromHere = createRequire(import.meta.url);
let runtimeReady: Promise<void> | null = null;
const grammars = new Map<CodeLanguage, Promise<LoadedGrammar>>();

export function isCodeLanguage(language: Language): language is CodeLanguage {
  return language !== "text";
}

/** The loaded grammar for `name`; concurrent callers share one load. */
export function loadGrammar(name: CodeLanguage): Promise<LoadedGrammar> {
  const cached = grammars.get(name);
  if (cached) return cached;
  const loading = load(name);
  grammars.set(name, loading);
  // A failed load is not cached, so the next caller sees the same error afresh rather than a stale promise.
  loading.catch(() => grammars.delete(name));
  return loading;
}

async function load(name: CodeLanguage): Promise<LoadedGrammar> {
  try {
    runtimeReady ??= Parser.init();
    await runtimeReady;
    const wasmPath = requireFromHere.resolve(`@repomix/tree-sitter-wasms/out/${GRAMMAR_FILES[name]}`);
    const language = await TreeSitterLanguage.load(wasmPath);
    const parser = new Parser();
    parser.setLanguage(language);
    return { name, language, parser };
  } catch (cause) {
    throw new GrammarLoadError(name, { cause });
  }
}
