// The frame: a 12-byte header (magic, version, flags, length, CRC-32) followed by the msgpack payload.
// Layout and byte order are normative; see docs/PROTOCOL.md §2.
import zlib from "node:zlib";
import CRC32 from "crc-32";
import { FrameDecodeError } from "../errors.js";

/** "LM" — the first two bytes of every Lattice Mesh frame. */
export const FRAME_MAGIC = 0x4c4d;
export const FRAME_VERSION = 1;
export const FRAME_HEADER_BYTES = 12;
/** Bits of the flags byte this version defines (none yet); any other bit set is refused. */
export const FRAME_KNOWN_FLAGS = 0x00;

export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;
/** Frames larger than this are delivered but logged as a warning (seed 002 §5.4: "warn if >100KB"). */
export const FRAME_WARN_BYTES = 100 * 1024;

// Node ≥ 20.15 ships zlib's own crc32 (about twice as fast); the crc-32 package computes the same value.
// Typed as optional because @types/node declares it but engines allows Node 20.11, which lacks it.
const nativeCrc32: ((data: Uint8Array) => number) | undefined = zlib.crc32;

/** CRC-32/IEEE (zlib's crc32) as an unsigned 32-bit integer. */
export const crc32: (payload: Uint8Array) => number =
  typeof nativeCrc32 === "function" ? nativeCrc32 : (payload) => CRC32.buf(payload) >>> 0;

/** Prefix a payload with its header. */
export function encodeFrame(payload: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.set(payload, FRAME_HEADER_BYTES);
  return writeFrameHeader(frame);
}

/**
 * Fill in the header of a frame whose payload already follows 12 bytes left free for it (the codec packs
 * with that room reserved, so a frame needs neither a second buffer nor a copy of its payload).
 */
export function writeFrameHeader(frame: Buffer): Buffer {
  const payloadBytes = frame.length - FRAME_HEADER_BYTES;
  frame.writeUInt16BE(FRAME_MAGIC, 0);
  frame.writeUInt8(FRAME_VERSION, 2);
  frame.writeUInt8(0, 3);
  frame.writeUInt32BE(payloadBytes, 4);
  frame.writeUInt32BE(crc32(frame.subarray(FRAME_HEADER_BYTES)), 8);
  return frame;
}

export interface FrameCheckResult {
  payload: Buffer;
  /** True when the CRC matched; a mismatching payload is still returned so a caller may salvage the id. */
  crcOk: boolean;
}

/**
 * Check a frame's header and return its payload. Throws FrameDecodeError for anything that is not
 * a well-formed frame of this version; reports (does not throw) a CRC mismatch.
 */
export function checkFrame(frame: Buffer, maxFrameBytes: number): FrameCheckResult {
  if (frame.length > maxFrameBytes) {
    throw new FrameDecodeError("too_large", `frame of ${frame.length} bytes exceeds the limit of ${maxFrameBytes}`);
  }
  if (frame.length < FRAME_HEADER_BYTES) {
    throw new FrameDecodeError("malformed_payload", `frame of ${frame.length} bytes is shorter than the 12-byte header`);
  }
  const magic = frame.readUInt16BE(0);
  if (magic !== FRAME_MAGIC) {
    throw new FrameDecodeError("malformed_payload", `bad magic 0x${magic.toString(16).padStart(4, "0")} (expected 0x4c4d "LM")`);
  }
  const version = frame.readUInt8(2);
  if (version !== FRAME_VERSION) {
    throw new FrameDecodeError("version_unsupported", `frame version ${version} is not supported (this node speaks ${FRAME_VERSION})`);
  }
  const flags = frame.readUInt8(3);
  if ((flags & ~FRAME_KNOWN_FLAGS) !== 0) {
    throw new FrameDecodeError("version_unsupported", `frame flags 0x${flags.toString(16)} use bits this version does not define`);
  }
  const length = frame.readUInt32BE(4);
  if (length !== frame.length - FRAME_HEADER_BYTES) {
    throw new FrameDecodeError("malformed_payload", `header says ${length} payload bytes, frame carries ${frame.length - FRAME_HEADER_BYTES}`);
  }
  const payload = frame.subarray(FRAME_HEADER_BYTES);
  return { payload, crcOk: crc32(payload) === frame.readUInt32BE(8) };
}
