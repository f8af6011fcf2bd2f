// Envelope ⇄ frame: msgpack (plain maps, no records) inside the CRC-checked frame.
import { Packr, RESERVE_START_SPACE } from "msgpackr";
import { FrameDecodeError, FrameTooLargeError } from "../errors.js";
import { checkFrame, FRAME_HEADER_BYTES, writeFrameHeader } from "./frame.js";
import { bodySchemas, envelopeHeaderSchema, SUPPORTED_ENVELOPE_VERSIONS, type DecodedHeader, type Envelope, type MessageKind } from "./schema.js";
import { isPlainBody, isPlainHeader } from "./shape-check.js";

// Plain msgpack maps so any msgpack library can read the payload; 64-bit ints decode as numbers.
// Keys whose value is undefined are left out (msgpackr would otherwise write an extension type that
// other msgpack libraries reject); a bare undefined value is written as nil.
// `skipValues` is honoured by msgpackr's packer but missing from its type declarations.
const packr = new Packr({
  useRecords: false,
  moreTypes: false,
  int64AsType: "number",
  mapsAsObjects: true,
  skipValues: [undefined],
  encodeUndefinedAsNil: true,
} as ConstructorParameters<typeof Packr>[0]);

/** msgpackr leaves this many bytes free in front of the payload: the frame header goes there. */
const PACK_WITH_HEADER_ROOM = RESERVE_START_SPACE | FRAME_HEADER_BYTES;
/** msgpackr's own output buffer size, and the largest one frames may share (it grows for a large message). */
const PACK_BUFFER_BYTES = 8 * 1024;
const SHARED_PACK_BUFFER_MAX_BYTES = 16 * 1024;

export function encodeEnvelope(envelope: Envelope, maxFrameBytes: number): Buffer {
  // The packed bytes are a slice of msgpackr's current output buffer, which it never writes over again.
  const frame = packr.pack(envelope, PACK_WITH_HEADER_ROOM);
  if (frame.length > maxFrameBytes) {
    throw new FrameTooLargeError(`${envelope.kind} message of ${frame.length} bytes exceeds the maximum frame size of ${maxFrameBytes}`);
  }
  return writeFrameHeader(frame.buffer.byteLength > SHARED_PACK_BUFFER_MAX_BYTES ? ownFrame(frame) : frame);
}

/**
 * A large message grew msgpackr's buffer, and it would cut every later frame from buffers that size: one
 * frame kept in the reply cache would hold megabytes. This frame gets a buffer of its own, and msgpackr a
 * small one again.
 */
function ownFrame(frame: Buffer): Buffer {
  packr.useBuffer(Buffer.allocUnsafeSlow(PACK_BUFFER_BYTES));
  return Buffer.from(frame);
}

function isKnownKind(kind: string): kind is MessageKind {
  return Object.hasOwn(bodySchemas, kind);
}

function salvageKind(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const kind = (value as Record<string, unknown>)["kind"];
  return typeof kind === "string" && kind.length <= 32 ? kind : undefined;
}

function salvageId(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const id = (value as Record<string, unknown>)["id"];
  return typeof id === "string" && id.length > 0 && id.length <= 64 ? id : undefined;
}

function unpack(payload: Buffer): unknown {
  try {
    return packr.unpack(payload);
  } catch (error) {
    throw new FrameDecodeError("malformed_payload", `payload is not valid msgpack: ${(error as Error).message}`);
  }
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}

/**
 * Decode and validate one frame: the hot kinds through a shape check (shape-check.ts), the rest and any
 * defect through the zod schemas. Throws FrameDecodeError (with the NACK code to answer) for any
 * defect; the error carries the message id when it could be read, so a NACK can be correlated.
 */
export function decodeEnvelope(frame: Buffer, maxFrameBytes: number): Envelope {
  const { payload, crcOk } = checkFrame(frame, maxFrameBytes);
  if (!crcOk) {
    let salvaged: string | undefined;
    try {
      salvaged = salvageId(packr.unpack(payload));
    } catch {
      salvaged = undefined;
    }
    throw new FrameDecodeError("crc_mismatch", "payload CRC-32 does not match the header", salvaged);
  }
  const raw = unpack(payload);
  const envelope = isPlainHeader(raw) ? raw : parseHeader(raw);
  if (!SUPPORTED_ENVELOPE_VERSIONS.includes(envelope.v)) {
    throw new FrameDecodeError("version_unsupported", `envelope version ${envelope.v} is not supported`, envelope.id, envelope.kind);
  }
  if (!isKnownKind(envelope.kind)) {
    throw new FrameDecodeError("unknown_kind", `unknown message kind "${envelope.kind}"`, envelope.id);
  }
  if (!isPlainBody(envelope.kind, envelope.body)) envelope.body = parseBody(envelope.kind, envelope.body, envelope.id);
  return envelope as Envelope;
}

/** The header through zod: what the shape check did not pass, with zod's account of any defect. */
function parseHeader(raw: unknown): DecodedHeader {
  const header = envelopeHeaderSchema.safeParse(raw);
  if (!header.success) {
    throw new FrameDecodeError("schema_invalid", `envelope: ${describeIssues(header.error.issues)}`, salvageId(raw), salvageKind(raw));
  }
  return header.data;
}

function parseBody(kind: MessageKind, body: unknown, id: string): unknown {
  const parsed = bodySchemas[kind].safeParse(body);
  if (!parsed.success) {
    throw new FrameDecodeError("schema_invalid", `${kind} body: ${describeIssues(parsed.error.issues)}`, id, kind);
  }
  // zod's output (like the unpacked payload it came from) belongs to this call: set the body, don't copy.
  return parsed.data;
}
