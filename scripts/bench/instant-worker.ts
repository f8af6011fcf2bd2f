// A worker that answers instantly (for the multi-hop benchmark): scope s<i> owns `s<i>/code.c`, defines
// sym_s<i> and calls sym_s<i+1>, and answers every task with one real, checkable citation.
// Usage: node dist/scripts/bench/instant-worker.js --index I --root DIR --registry DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MeshNode } from "../../bus/index.js";
import { citationHash, sliceLines } from "../../agents/protocol/index.js";

const { values } = parseArgs({ options: { index: { type: "string" }, root: { type: "string" }, registry: { type: "string" } } });
const index = Number(values.index);
const root = values.root as string;
const scope = `s${index}`;
const file = `${scope}/code.c`;
const text = readFileSync(join(root, file), "utf8");
const sha256 = citationHash(sliceLines(text, 1, 1));

const node = new MeshNode({
  id: `${scope}-instant`,
  role: "worker",
  registryDir: values.registry as string,
  gossipMs: 200,
  meta: { scope, scope_paths: [`${scope}/`], protocol_versions: ["2.0"], index_revision: "0000000000000000", executor: "instant" },
});
node.handle("references", () => ({
  scope,
  paths: [`${scope}/`],
  symbols: [`sym_${scope}`],
  references: [{ kind: "call", target: `sym_s${index + 1}`, from_file: file, line: 1 }],
}));
node.handle("task", (args) => ({
  task_id: (args as { id: string }).id,
  status: "completed",
  result: `sym_${scope} calls sym_s${index + 1}`,
  protocol_version: "2.0",
  key_findings: [`sym_${scope} calls sym_s${index + 1}`],
  grounding_evidence: {
    queries_executed: ["q"],
    overlays_consulted: ["O1", "O3"],
    citations: [{ overlay: "O3", content: `sym_${scope} calls sym_s${index + 1}`, relevance: "exact", file_path: file, line_start: 1, line_end: 1, sha256, similarity: 1, similarity_kind: "exact" }],
    grounding_confidence: "high",
  },
}));
await node.start();
process.stdout.write(`${JSON.stringify({ event: "ready", id: node.id, endpoint: node.endpoint })}\n`);
const stop = () => void node.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
