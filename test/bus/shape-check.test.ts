// The hot path's shape check must never pass what zod refuses, nor pass an envelope zod would change.
import { describe, expect, it } from "vitest";
import { Packr } from "msgpackr";
import { isPlainBody, isPlainHeader } from "../../bus/wire/shape-check.js";
import { bodySchemas, envelopeHeaderSchema, type MessageKind } from "../../bus/wire/schema.js";
import { decodeEnvelope, encodeFrame } from "../../bus/index.js";

const request = {
  v: 1,
  kind: "request",
  id: "abc.1",
  from: "worker-1",
  inc: 1_700_000_000_000,
  deadline: 1_700_000_010_000,
  hops: 1,
  max_hops: 6,
  path: ["worker-1"],
  trace: "0af7651916cd43dd8448eb211c80319c",
  body: { op: "echo", args: { text: "hi" } },
};

/** A CURVE public key in Z85 (40 characters), as a signed request's `auth.key` carries it. */
const KEY = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";

/** Each variant: the request above with some fields replaced (undefined removes the field). */
const headerVariants: Record<string, unknown>[] = [
  {},
  { kind: "reply", corr: "abc.1", body: { result: 1 } },
  { from: "~0123abcd" },
  { deadline: undefined, hops: undefined, max_hops: undefined, path: undefined, trace: undefined },
  { extra: 1 },
  { v: 1.5 },
  { v: "1" },
  { kind: "" },
  { kind: "k".repeat(33) },
  { id: "" },
  { id: "i".repeat(65) },
  { from: "-bad" },
  { from: "~~x" },
  { inc: -1 },
  { inc: 2 ** 60 },
  { corr: null },
  { corr: "" },
  { deadline: null },
  { hops: 256 },
  { max_hops: -1 },
  { path: ["ok", "bad id"] },
  { path: "worker-1" },
  { path: Array.from({ length: 257 }, () => "a") },
  { trace: "t".repeat(65) },
  { trace: 7 },
  { body: undefined },
  { auth: { key: "k", mac: new Uint8Array(32) } },
  { auth: { key: KEY, mac: new Uint8Array(32) } },
  { auth: { key: KEY, mac: new Uint8Array(31) } },
  { auth: { key: KEY, mac: new Uint8Array(32), extra: 1 } },
  { auth: { key: KEY } },
  { auth: { key: `${KEY.slice(1)} `, mac: new Uint8Array(32) } },
  { auth: null },
];

const bodyVariants: [MessageKind, unknown][] = [
  ["request", { op: "echo", args: 1 }],
  ["request", { op: "echo", args: null }],
  ["request", { op: "echo" }],
  ["request", { op: "", args: 1 }],
  ["request", { op: "o".repeat(65), args: 1 }],
  ["request", { op: "echo", args: 1, more: 2 }],
  ["request", [1, 2]],
  ["reply", { result: "x" }],
  ["reply", { result: null }],
  ["reply", {}],
  ["reply", { result: 1, error: null }],
  ["reply", { error: { code: "c", message: "m", retryable: false } }],
  ["ping", {}],
  ["ping", { x: 1 }],
  ["pong", new Date(0)],
  ["cancel", null],
  ["nack", { code: "busy", detail: "", retryable: true }],
];

function variant(change: Record<string, unknown>): Record<string, unknown> {
  const envelope: Record<string, unknown> = { ...request };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete envelope[key];
    else envelope[key] = value;
  }
  return envelope;
}

describe("shape check of hot envelopes", () => {
  it("passes a header only when zod accepts it unchanged", () => {
    let passed = 0;
    for (const change of headerVariants) {
      const raw = variant(change);
      if (!isPlainHeader(raw)) continue;
      passed++;
      const parsed = envelopeHeaderSchema.safeParse(raw);
      expect(parsed.success, JSON.stringify(change)).toBe(true);
      expect(parsed.data, JSON.stringify(change)).toStrictEqual(raw);
    }
    expect(passed).toBe(5);
  });

  it("passes a body only when zod accepts it unchanged", () => {
    let passed = 0;
    for (const [kind, body] of bodyVariants) {
      if (!isPlainBody(kind, body)) continue;
      passed++;
      const parsed = bodySchemas[kind].safeParse(body);
      expect(parsed.success, `${kind} ${JSON.stringify(body)}`).toBe(true);
      expect(parsed.data, `${kind} ${JSON.stringify(body)}`).toStrictEqual(body);
    }
    expect(passed).toBe(5);
  });

  it("decodes what it passes and what zod passes alike, and refuses the same defects", () => {
    const packr = new Packr({ useRecords: false, mapsAsObjects: true } as ConstructorParameters<typeof Packr>[0]);
    const frameOf = (envelope: unknown) => encodeFrame(packr.pack(envelope));
    expect(decodeEnvelope(frameOf(request), 1 << 20)).toStrictEqual(request);
    const withExtra = variant({ extra: 1 });
    expect(decodeEnvelope(frameOf(withExtra), 1 << 20)).toStrictEqual(request);
    expect(() => decodeEnvelope(frameOf(variant({ hops: 256 })), 1 << 20)).toThrow(/hops/);
    expect(() => decodeEnvelope(frameOf(variant({ body: { op: "echo" } })), 1 << 20)).toThrow(/request body: args/);
  });
});
