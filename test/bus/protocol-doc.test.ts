// docs/PROTOCOL.md is normative: its worked examples are decoded and re-encoded here byte for byte.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { crc32, decodeEnvelope, encodeEnvelope, NACK_CODES, type Envelope } from "../../bus/index.js";
import { authMac, sharedSecret } from "../../bus/auth.js";

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

  it("§11b's auth example: the shared secret and the MAC are those the document gives", () => {
    const section = doc.slice(doc.indexOf("## 11b."));
    const cell = (label: string) => new RegExp(`\\| ${label.replace(/[()]/g, "\\$&")} \\| (.+) \\|`).exec(section)?.[1] ?? "";
    const pair = (label: string) => [...cell(label).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    const [clientPublic, clientSecret] = pair("client public / secret");
    const [nodePublic, nodeSecret] = pair("node public / secret");
    const [id, from, trace, op] = pair("id, from, trace, op");
    const shared = sharedSecret({ publicKey: clientPublic as string, secretKey: clientSecret as string }, nodePublic as string);
    expect(shared.toString("hex")).toBe(pair("S (hex)")[0]);
    expect(sharedSecret({ publicKey: nodePublic as string, secretKey: nodeSecret as string }, clientPublic as string).equals(shared)).toBe(true);
    expect(authMac(shared, { id: id as string, from: from as string, trace: trace as string, op: op as string }).toString("hex")).toBe(pair("M (hex)")[0]);
  });

  it("accepts the epoch milliseconds as uint 64 and int 64 as well as float 64, as §2 says", () => {
    const payload = hexAfter("Payload (149 bytes");
    const asFloat = Buffer.from("cb4278bcfe56800000", "hex");
    const at = payload.indexOf(asFloat);
    expect(at).toBeGreaterThan(0);
    for (const integer of ["cf0000018bcfe56800", "d30000018bcfe56800"]) {
      const changed = Buffer.concat([payload.subarray(0, at), Buffer.from(integer, "hex"), payload.subarray(at + asFloat.length)]);
      const frame = Buffer.concat([Buffer.from("4c4d0100", "hex"), Buffer.alloc(8), changed]);
      frame.writeUInt32BE(changed.length, 4);
      frame.writeUInt32BE(crc32(changed), 8);
      expect(decodeEnvelope(frame, 1 << 20).inc, integer).toBe(1700000000000);
    }
  });

  const python = spawnSync("/usr/bin/python3", ["-c", "import msgpack"]).status === 0;
  it.skipIf(!python)("§11's Python snippet reproduces the request example byte for byte", () => {
    const envelope = /```\n(envelope = \{[\s\S]*?\})\n```/.exec(doc)?.[1];
    const snippet = /```python\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(envelope && snippet).toBeTruthy();
    const program = `${envelope}\n${snippet}\nimport sys\nsys.stdout.write(frame.hex())\n`;
    const run = spawnSync("/usr/bin/python3", ["-c", program], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(Buffer.concat([hexAfter("Header (12 bytes)"), hexAfter("Payload (149 bytes")]).toString("hex"));
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
