// Every NACK path, driven by a raw DEALER that sends exactly the bytes under test. After each bad
// frame the node must still answer a good request: bad input never takes a node down.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { encodeFrame, FRAME_HEADER_BYTES, type MeshNode } from "../../bus/index.js";
import { FAST_LIVENESS, NodeSet } from "../helpers/nodes.js";
import { packr, RawPeer, requestEnvelope } from "../helpers/raw-peer.js";

const nodes = new NodeSet();
let node: MeshNode;
let raw: RawPeer;

beforeAll(async () => {
  node = await nodes.start({ id: "target", maxFrameBytes: 64 * 1024, maxConcurrent: 1, maxQueued: 0, ...FAST_LIVENESS });
  node.handle("block", (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(null))));
  raw = new RawPeer("~rawclient", node.endpoint);
});
afterAll(async () => {
  raw.close();
  await nodes.stopAll();
});

async function expectNack(code: string, corr?: string): Promise<void> {
  const answer = await raw.receive();
  expect(answer.kind).toBe("nack");
  if (answer.kind !== "nack") return;
  expect(answer.body.code).toBe(code);
  expect(answer.body.detail.length).toBeGreaterThan(0);
  if (corr !== undefined) expect(answer.corr).toBe(corr);
  // The node is still serving.
  const probe = requestEnvelope("~rawclient");
  await raw.sendEnvelope(probe);
  const reply = await raw.receive();
  expect(reply).toMatchObject({ kind: "reply", corr: probe["id"] });
}

describe("NACK paths", () => {
  it("random bytes → malformed_payload", async () => {
    await raw.sendBytes(randomBytes(200));
    await expectNack("malformed_payload");
  });

  it("a frame shorter than the header → malformed_payload", async () => {
    await raw.sendBytes(Buffer.from([0x4c, 0x4d, 1]));
    await expectNack("malformed_payload");
  });

  it("a corrupted payload → crc_mismatch, correlated when the id survives", async () => {
    const envelope = requestEnvelope("~rawclient");
    const frame = encodeFrame(packr.pack(envelope));
    // Damage one character of the trace id: msgpack still parses, the CRC does not match.
    const at = frame.indexOf("0".repeat(32), FRAME_HEADER_BYTES);
    frame[at + 5] = 0x31;
    await raw.sendBytes(frame);
    await expectNack("crc_mismatch", envelope["id"] as string);
  });

  it("an unknown frame version → version_unsupported", async () => {
    const frame = encodeFrame(packr.pack(requestEnvelope("~rawclient")));
    frame.writeUInt8(9, 2);
    await raw.sendBytes(frame);
    await expectNack("version_unsupported");
  });

  it("an unknown envelope version → version_unsupported", async () => {
    const envelope = requestEnvelope("~rawclient", { v: 7 });
    await raw.sendEnvelope(envelope);
    await expectNack("version_unsupported", envelope["id"] as string);
  });

  it("a frame over the size limit → too_large", async () => {
    await raw.sendEnvelope(requestEnvelope("~rawclient", { body: { op: "ping", args: "x".repeat(70 * 1024) } }));
    await expectNack("too_large");
  });

  it("a header whose length disagrees with the frame → malformed_payload", async () => {
    const frame = encodeFrame(packr.pack(requestEnvelope("~rawclient")));
    frame.writeUInt32BE(frame.length, 4);
    await raw.sendBytes(frame);
    await expectNack("malformed_payload");
    expect(FRAME_HEADER_BYTES).toBe(12);
  });

  it("valid msgpack that is not an envelope → schema_invalid", async () => {
    await raw.sendBytes(encodeFrame(packr.pack({ hello: "world" })));
    await expectNack("schema_invalid");
  });

  it("an unknown kind → unknown_kind", async () => {
    const envelope = requestEnvelope("~rawclient", { kind: "teleport" });
    await raw.sendEnvelope(envelope);
    await expectNack("unknown_kind", envelope["id"] as string);
  });

  it("a request body that violates its schema → schema_invalid", async () => {
    const envelope = requestEnvelope("~rawclient", { body: { args: {} } });
    await raw.sendEnvelope(envelope);
    await expectNack("schema_invalid", envelope["id"] as string);
  });

  it("a member id that does not match the connection identity → unauthorized", async () => {
    const spoofer = new RawPeer("mallory", node.endpoint);
    try {
      const envelope = requestEnvelope("alice");
      await spoofer.sendEnvelope(envelope);
      const answer = await spoofer.receive();
      expect(answer).toMatchObject({ kind: "nack", corr: envelope["id"], body: { code: "unauthorized", retryable: false } });
    } finally {
      spoofer.close();
    }
  });

  it("a past deadline → deadline_exceeded", async () => {
    const envelope = requestEnvelope("~rawclient", { deadline: Date.now() - 1_000 });
    await raw.sendEnvelope(envelope);
    await expectNack("deadline_exceeded", envelope["id"] as string);
  });

  it("a spent hop budget → hop_limit", async () => {
    const envelope = requestEnvelope("~rawclient", { hops: 4, max_hops: 3, path: ["m", "x", "y", "~rawclient"] });
    await raw.sendEnvelope(envelope);
    await expectNack("hop_limit", envelope["id"] as string);
  });

  it("a path that already contains the node → cycle_detected", async () => {
    const envelope = requestEnvelope("~rawclient", { hops: 2, path: ["target", "~rawclient"] });
    await raw.sendEnvelope(envelope);
    await expectNack("cycle_detected", envelope["id"] as string);
  });

  it("an unregistered op → unknown_op", async () => {
    const envelope = requestEnvelope("~rawclient", { body: { op: "launch", args: {} } });
    await raw.sendEnvelope(envelope);
    await expectNack("unknown_op", envelope["id"] as string);
  });

  it("a full bulkhead → busy with a retry-after hint", async () => {
    const blocker = requestEnvelope("~rawclient", { body: { op: "block", args: {} } });
    await raw.sendEnvelope(blocker);
    const second = requestEnvelope("~rawclient", { body: { op: "block", args: {} } });
    await raw.sendEnvelope(second);
    const answer = await raw.receive();
    expect(answer).toMatchObject({ kind: "nack", corr: second["id"], body: { code: "busy", retryable: true } });
    if (answer.kind === "nack") expect(answer.body.retry_after_ms).toBeGreaterThan(0);
    await raw.sendEnvelope({ v: 1, kind: "cancel", id: "c1", from: "~rawclient", inc: 1, corr: blocker["id"], body: {} });
    await expect.poll(() => node.health().in_flight).toBe(0);
  });

  it("never NACKs an answer: a reply, pong or cancel without corr, or a nack with a bad body, is counted and dropped", async () => {
    const before = node.stats.snapshot();
    const base = { v: 1, from: "~rawclient", inc: 1 };
    await raw.sendEnvelope({ ...base, kind: "reply", id: "r-no-corr", body: { result: 1 } });
    await raw.sendEnvelope({ ...base, kind: "pong", id: "p-no-corr", body: {} });
    await raw.sendEnvelope({ ...base, kind: "cancel", id: "c-no-corr", body: {} });
    await raw.sendEnvelope({ ...base, kind: "nack", id: "n-bad", corr: "x", body: { code: "no_such_code", detail: "", retryable: "maybe" } });
    // The first answer the client gets is the reply to its next request: nothing above was NACKed.
    const probe = requestEnvelope("~rawclient");
    await raw.sendEnvelope(probe);
    expect(await raw.receive()).toMatchObject({ kind: "reply", corr: probe["id"] });
    const after = node.stats.snapshot();
    expect((after["dropped_without_corr"] ?? 0) - (before["dropped_without_corr"] ?? 0)).toBe(3);
    expect((after["dropped_bad_answer"] ?? 0) - (before["dropped_bad_answer"] ?? 0)).toBe(1);
  });

  it("serves a member's request that comes before its hello, on the same connection", async () => {
    const early = new RawPeer("early-member", node.endpoint);
    try {
      const envelope = requestEnvelope("early-member");
      await early.sendEnvelope(envelope);
      expect(await early.receive()).toMatchObject({ kind: "reply", corr: envelope["id"] });
    } finally {
      early.close();
    }
  });

  it("counts every rejected frame by code", () => {
    const stats = node.stats.snapshot();
    for (const code of ["malformed_payload", "crc_mismatch", "version_unsupported", "too_large", "schema_invalid", "unknown_kind"]) {
      expect(stats[`bad_frame_${code}`] ?? 0).toBeGreaterThan(0);
    }
  });
});
