// A store patched by incremental rebuilds (edited, added and deleted files) holds exactly what a cold
// build of the same tree holds: the same data files byte for byte (bar the calibration, which a small
// change keeps by design), the same symbol look-ups, and the same answers to the same questions.
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { openPgc, type OpenedPgc } from "../../../agents/pgc/store/open-pgc.js";
import { Pgc } from "../../../agents/pgc/pgc.js";

const STDLIB = "/usr/lib/python3.11";
const PACKAGES = ["json", "http", "email"];
const available = PACKAGES.every((pkg) => existsSync(join(STDLIB, pkg)));
/** Warnings say a stored part was unusable and rebuilt whole, which would make the comparison vacuous. */
const warnings: string[] = [];
const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(line) });
const QUESTIONS = ["parse an email message from bytes", "format a date for an HTTP header", "json decoder error", "frobnicate_payload", "quote the header value", "scan once"];
let dir: string;
let root: string;

beforeAll(() => {
  if (!available) return;
  dir = mkdtempSync(join(tmpdir(), "mesh-incremental-"));
  root = join(dir, "src");
  for (const pkg of PACKAGES) cpSync(join(STDLIB, pkg), join(root, pkg), { recursive: true, filter: (src) => !src.includes("__pycache__") });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One thread both ways: the threaded build has its own test, and this one compares patching with a cold build. */
const open = (cache: string) => openPgc({ scope: "std", root, cacheRoot: join(dir, cache), threads: 1, logger });

function blobsBarCalibration(opened: OpenedPgc): Record<string, string> {
  return Object.fromEntries(Object.entries(opened.manifest.blobs).filter(([name]) => name !== "calibration.json"));
}

async function answers(opened: OpenedPgc, calibration = opened.calibration): Promise<unknown[]> {
  const pgc = new Pgc("std", [], { ...opened, calibration });
  return Promise.all(QUESTIONS.map((question) => pgc.query(question, { topK: 8 })));
}

async function expectSameAsCold(patched: OpenedPgc, coldCache: string): Promise<void> {
  const cold = await open(coldCache);
  expect(cold.outcome.reused).toBe(0);
  expect(patched.manifest.index_revision).toBe(cold.manifest.index_revision);
  expect(blobsBarCalibration(patched)).toEqual(blobsBarCalibration(cold));
  expect(patched.data).toEqual(cold.data);
  expect(patched.index.toJSON()).toEqual(cold.index.toJSON());
  for (const name of ["formatdate", "JSONDecodeError", "frobnicate_payload", "HTTPConnection", "message_from_bytes"]) {
    expect(patched.index.findSymbol(name)).toEqual(cold.index.findSymbol(name));
    expect(patched.index.findSymbol(name.toLowerCase(), { ignoreCase: true })).toEqual(cold.index.findSymbol(name.toLowerCase(), { ignoreCase: true }));
  }
  // With the cold build's calibration, every answer is the same, similarity included.
  const coldAnswers = await answers(cold);
  expect(coldAnswers.flat().length).toBeGreaterThan(QUESTIONS.length * 4);
  expect(await answers(patched, cold.calibration)).toEqual(coldAnswers);
  expect(warnings).toEqual([]);
}

describe.skipIf(!available)("incremental rebuilds against cold builds (json, http, email of Python 3.11)", () => {
  it("patches edits, additions and deletions into exactly the store a cold build makes", async () => {
    const first = await open("patched");
    expect(first.outcome.reused).toBe(0);

    // An edit that adds a definition other files call, a new module importing two others, a deletion.
    appendFileSync(join(root, "email/utils.py"), '\n\ndef frobnicate_payload(msg):\n    """Frobnicate the payload of a message."""\n    return formatdate(localtime=True)\n');
    writeFileSync(join(root, "http/extra.py"), 'import email.utils\nfrom json import dumps\n\n\ndef header_date():\n    """Format a date for an HTTP header."""\n    return dumps(email.utils.frobnicate_payload(None))\n');
    unlinkSync(join(root, "json/tool.py"));
    const second = await open("patched");
    expect(second.outcome).toMatchObject({ mode: "built", reparsed: 2 });
    await expectSameAsCold(second, "cold-1");

    // A second round on the patched store: revert the edit, drop the new file again.
    cpSync(join(STDLIB, "email/utils.py"), join(root, "email/utils.py"));
    unlinkSync(join(root, "http/extra.py"));
    const third = await open("patched");
    expect(third.outcome).toMatchObject({ mode: "built", reparsed: 1 });
    await expectSameAsCold(third, "cold-2");
  }, 120_000); // about 13 s alone; two cold builds and four rebuilds, several times that on a loaded two-core machine

  it("patches a one-file edit that changes no file list (every other file's import resolution kept)", async () => {
    await open("one");
    appendFileSync(join(root, "json/decoder.py"), "\n# scanned once more\ndef scan_once_more(s):\n    return py_scanstring(s, 0)\n");
    const patched = await open("one");
    expect(patched.outcome).toMatchObject({ mode: "built", reparsed: 1 });
    await expectSameAsCold(patched, "one-cold");
  });
});
