// `mesh ask-local`: answer a question from one scope's PGC, without any bus.
import { createLogger } from "../../logging.js";
import { loadPgc } from "../../pgc-loader.js";
import { logLevelOf, parse, positiveInt, printJson } from "../args.js";
import { overlaysOption } from "../overlays-option.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh ask-local "QUESTION" --root DIR [options]

Answer a question from one scope's grounded index (PGC), built or loaded from the cache, with no mesh.
The answer is extractive: the best matching sources with file, lines, sha256 and similarity.

Options:
  --root DIR            the code base (required)
  --scope-path PREFIX   a directory or file under DIR that the scope owns (repeatable; default: all of DIR)
  --scope NAME          scope name shown in answers (default: the last part of the first scope path, or DIR)
  --overlays O1,O3      only consult these overlays
  --top-k N             number of sources (default 5)
  --cache DIR           PGC cache directory (default $MESH_CACHE_DIR or ~/.cache/lattice-mesh)
  --rebuild             ignore the cached index and rebuild it
  --json                print the result in the shape of \`ask --json\`
  --log-level LEVEL     (default warn)
  -h, --help            show this help`;

const OPTIONS = {
  root: { type: "string" },
  "scope-path": { type: "string", multiple: true },
  scope: { type: "string" },
  overlays: { type: "string" },
  "top-k": { type: "string" },
  cache: { type: "string" },
  rebuild: { type: "boolean" },
} as const;

export function defaultScopeName(root: string, scopePaths: readonly string[]): string {
  const source = scopePaths[0] ?? root;
  return source.replace(/\/+$/, "").split("/").filter(Boolean).pop() ?? "scope";
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const question = positionals.join(" ").trim();
  if (!question) throw new CliError("a QUESTION is required", EXIT.usage, 'for example: mesh ask-local "where is dma_alloc_coherent defined?" --root .');
  if (!values.root) throw new CliError("--root is required", EXIT.usage);
  const logger = createLogger(logLevelOf(values["log-level"], "warn"));
  const scopePaths = values["scope-path"] ?? [];
  const scope = values.scope ?? defaultScopeName(values.root, scopePaths);
  const pgc = await loadPgc({ scope, root: values.root, scopePaths, cacheRoot: values.cache, rebuild: values.rebuild, quiet: values.json }, logger);
  const overlays = overlaysOption(values.overlays);
  const result = await pgc.ask(question, { topK: positiveInt("top-k", values["top-k"], 5), ...(overlays ? { overlays } : {}) });
  if (values.json) {
    printJson(result);
    return EXIT.ok;
  }
  process.stdout.write(`${result.answer}\n\n`);
  for (const [i, s] of result.sources.entries()) {
    process.stdout.write(`[${i + 1}] ${s.overlay}/${s.section} ${s.file_path}:${s.line_start}-${s.line_end}  ${s.similarity_kind} ${s.similarity.toFixed(2)}\n`);
  }
  process.stdout.write(`intent: ${result.query_intent.intent} · ${result.metadata.elapsed_ms} ms\n`);
  return EXIT.ok;
}
