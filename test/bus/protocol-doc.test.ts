// docs/PROTOCOL.md is normative: its worked examples are decoded and re-encoded here byte for byte.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { crc32, decodeEnvelope, encodeEnvelope, NACK_CODES, type Envelope } from "../../bus/index.js";

const doc = readFileSync(new URL("../../docs/PROTOCOL.md", import.meta.url), "utf8");

/** The hex inside the fenced block that follows `marker` in the document. */
function hexAfter(marker: string): Buffer {
  const start = doc.indexOf(marker);
  expect(start, `marker "${marker}" in PROTOCOL.md`).toBeGreaterThanOrEqual(0);
  const block = /```\n([0-9a-f\s]+)```/.exec(doc.slice(start));
  return Buffer.from((block?.[1] ?? "").replace(/\s+/g, ""), "hex");
}

describe("PROTOCOL.md worked examples", () => {
  it("the request example decodes to the documented envelope and re-encodes identically", () => {
    const header = hexAfter("Header (12 bytes)");
    const payload = hexAfter("Payload (149 bytes");
    const frame = Buffer.concat([header, payload]);
    expect(frame.length).toBe(161);
    const envelope = decodeEnvelope(frame, 1 << 20);
    expect(envelope).toEqual({
      v: 1,
      kind: "request",
      id: "q7.1",
      from: "n1",
      inc: 1700000000000,
      deadline: 1700000005000,
      hops: 1,
      max_hops: 6,
      path: ["n1"],
      trace: "0af7651916cd43dd8448eb211c80319c",
      body: { op: "ping", args: {} },
    });
    expect(encodeEnvelope(envelope, 1 << 20).equals(frame)).toBe(true);
  });

  it("the NACK example decodes and re-encodes identically", () => {
    const frame = hexAfter("as one 125-byte frame");
    expect(frame.length).toBe(125);
    const envelope = decodeEnvelope(frame, 1 << 20) as Envelope;
    expect(envelope).toMatchObject({ kind: "nack", corr: "q7.1", body: { code: "busy", retryable: true, retry_after_ms: 50 } });
    expect(encodeEnvelope(envelope, 1 << 20).equals(frame)).toBe(true);
  });

  it("states the CRC-32 check value the implementation computes", () => {
    expect(doc).toContain("`0xCBF43926`");
    expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926);
  });

  it("lists every NACK code with the retryability the code uses", () => {
    for (const [code, info] of Object.entries(NACK_CODES)) {
      expect(doc).toMatch(new RegExp(`\\| \`${code}\` \\| ${info.retryable ? "yes" : "no"} \\|`));
    }
  });
});
