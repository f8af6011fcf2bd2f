// The manager's batching of expansions (search/expand-batch.ts): those asked of one scope with one trail
// before the event loop turns go as one `expand_batch` request, a lone one as `expand`, and a worker that
// does not know the batch op gets them one by one. The requests are recorded by the send function given
// to the batcher (what the manager's dispatchOp would send); the worker side is tested over real worker
// processes in manager-mesh.test.ts.
import { describe, expect, it } from "vitest";
import { batchExpands, type SendExpand } from "../../../agents/manager/search/expand-batch.js";
import { MAX_EXPAND_BATCH, type ExpandArgs } from "../../../agents/protocol/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import type { Trail } from "../../../agents/manager/search/trace-chain.js";

const question = parseQuestion("How does alloc_pages wake kswapd?");
const args = (symbol: string): ExpandArgs => ({ question, mode: "forward", from: { symbol }, covered: {} });
const trail = (path: string[]): Trail => ({ path, hops: path.length, maxHops: 6 });
const resultOf = (scope: string, symbol: string) => ({ scope, resolved: true, steps: [], leads: [], symbol });

interface Sent {
  scope: string;
  op: string;
  symbols: string[];
  trail: Trail;
}

/** A worker side that answers every expansion with its entry's name, recording each request. */
function recorder(options: { knowsBatch?: boolean; fail?: Error; short?: boolean } = {}): { sent: Sent[]; send: SendExpand } {
  const sent: Sent[] = [];
  const send: SendExpand = async (scope, op, raw, t) => {
    const items = op === "expand_batch" ? (raw as { items: ExpandArgs[] }).items : [raw as ExpandArgs];
    sent.push({ scope, op, symbols: items.map((a) => a.from.symbol), trail: t });
    if (options.fail) throw options.fail;
    if (op === "expand_batch" && options.knowsBatch === false) throw Object.assign(new Error("unknown_op: no handler for expand_batch"), { code: "unknown_op" });
    const results = items.map((a) => resultOf(scope, a.from.symbol));
    if (op === "expand") return { result: results[0], agent: `${scope}-1`, failovers: 0 };
    return { result: { results: options.short ? results.slice(1) : results }, agent: `${scope}-1`, failovers: 1 };
  };
  return { sent, send };
}

describe("expansions asked together", () => {
  it("go to one scope with one trail as one expand_batch, each caller getting its own result and the replica that answered", async () => {
    const { sent, send } = recorder();
    const batcher = batchExpands(send);
    const t = trail(["manager"]);
    const answers = await Promise.all(["a", "b", "c"].map((s) => batcher.expand("mm", args(s), t)));
    expect(sent).toEqual([{ scope: "mm", op: "expand_batch", symbols: ["a", "b", "c"], trail: t }]);
    expect(answers.map((a) => (a.result as { symbol: string }).symbol)).toEqual(["a", "b", "c"]);
    expect(answers.every((a) => a.agent === "mm-1" && a.failovers === 1)).toBe(true);
    expect(batcher.stats).toEqual({ expansions: 3, requests: 1 });
  });

  it("keep scopes and trails apart, send a lone expansion as expand, and split a batch past the limit", async () => {
    const { sent, send } = recorder();
    const batcher = batchExpands(send);
    const first = trail(["manager"]);
    const second = trail(["manager", "kernel-1"]);
    const many = Array.from({ length: MAX_EXPAND_BATCH + 2 }, (_, i) => `f${i}`);
    await Promise.all([
      batcher.expand("mm", args("a"), first),
      batcher.expand("mm", args("b"), second),
      batcher.expand("net", args("c"), first),
      ...many.map((s) => batcher.expand("drivers", args(s), first)),
    ]);
    const summary = sent.map((s) => `${s.scope} ${s.op} ${s.symbols.length} ${s.trail.path.join(">")}`);
    expect(summary).toEqual(["mm expand 1 manager", "mm expand 1 manager>kernel-1", "net expand 1 manager", `drivers expand_batch ${MAX_EXPAND_BATCH} manager`, "drivers expand_batch 2 manager"]);
    expect(sent.at(-1)?.symbols).toEqual(many.slice(MAX_EXPAND_BATCH));
  });

  it("asked in different turns of the event loop go separately", async () => {
    const { sent, send } = recorder();
    const batcher = batchExpands(send);
    await batcher.expand("mm", args("a"), trail(["manager"]));
    await batcher.expand("mm", args("b"), trail(["manager"]));
    expect(sent.map((s) => s.op)).toEqual(["expand", "expand"]);
  });

  it("of a worker without expand_batch are sent again one by one, and that scope's later ones at once", async () => {
    const { sent, send } = recorder({ knowsBatch: false });
    const batcher = batchExpands(send);
    const t = trail(["manager"]);
    const answers = await Promise.all(["a", "b"].map((s) => batcher.expand("mm", args(s), t)));
    expect(answers.map((a) => (a.result as { symbol: string }).symbol)).toEqual(["a", "b"]);
    await Promise.all(["c", "d"].map((s) => batcher.expand("mm", args(s), t)));
    expect(sent.map((s) => `${s.op} ${s.symbols.join(",")}`)).toEqual(["expand_batch a,b", "expand a", "expand b", "expand c", "expand d"]);
  });

  it("fail together when their request fails, or when the answer does not hold one result for each", async () => {
    const down = batchExpands(recorder({ fail: Object.assign(new Error("peer mm-1 expired"), { code: "peer_unavailable" }) }).send);
    const t = trail(["manager"]);
    const failed = await Promise.allSettled(["a", "b"].map((s) => down.expand("mm", args(s), t)));
    expect(failed.map((f) => f.status)).toEqual(["rejected", "rejected"]);
    expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ message: "peer mm-1 expired" });
    const short = batchExpands(recorder({ short: true }).send);
    const wrong = await Promise.allSettled(["a", "b"].map((s) => short.expand("mm", args(s), t)));
    expect(wrong.map((f) => f.status)).toEqual(["rejected", "rejected"]);
    expect((wrong[0] as PromiseRejectedResult).reason).toMatchObject({ name: "ProtocolSchemaError", message: expect.stringContaining("expected 2 results, got 1") });
  });
});
