// Data files of a stored PGC: written atomically, each with its sha256 recorded in the manifest,
// so a torn or tampered file is detected on load and the index is rebuilt, never half-read.
import { createHash } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Packr } from "msgpackr";

// Internal format only (never on the wire): records make repeated object shapes compact and fast.
const packr = new Packr({ useRecords: true, moreTypes: false });

export class CorruptStoreError extends Error {
  override readonly name = "CorruptStoreError";
  readonly code = "pgc_store_corrupt";
  readonly retryable = false;
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Write `value` as msgpack (or JSON for names ending .json); returns its sha256. */
export async function writeBlob(dir: string, name: string, value: unknown): Promise<string> {
  const bytes = name.endsWith(".json") ? Buffer.from(JSON.stringify(value)) : packr.pack(value);
  const temp = join(dir, `.${name}.${process.pid}.tmp`);
  await writeFile(temp, bytes);
  await rename(temp, join(dir, name));
  return sha256Hex(bytes);
}

/** Read a blob and check it against the sha256 the manifest recorded. */
export async function readBlob<T>(dir: string, name: string, expectedSha256: string): Promise<T> {
  const bytes = await readFile(join(dir, name)).catch((error: unknown) => {
    throw new CorruptStoreError(`${name} is missing: ${(error as Error).message}`);
  });
  if (sha256Hex(bytes) !== expectedSha256) throw new CorruptStoreError(`${name} does not match the checksum in the manifest`);
  try {
    return (name.endsWith(".json") ? JSON.parse(bytes.toString("utf8")) : packr.unpack(bytes)) as T;
  } catch (error) {
    throw new CorruptStoreError(`${name} cannot be decoded: ${(error as Error).message}`);
  }
}
