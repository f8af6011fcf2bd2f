// Indexing the standard library itself: a module with a standard-library name that the root holds is
// another scope's, so its imports and imported calls are cross-scope references (http → email, urllib),
// while a standard module the root does not hold stays out of the references.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { extractScope, type ScopeExtractionResult } from "../../../agents/pgc/overlays/index.js";
import { Pgc } from "../../../agents/pgc/pgc.js";
import { openPgc } from "../../../agents/pgc/store/open-pgc.js";

const STDLIB = "/usr/lib/python3.11";
const available = ["http", "email", "urllib"].every((pkg) => existsSync(join(STDLIB, pkg)));
let root: string;
let http: ScopeExtractionResult;

beforeAll(async () => {
  if (!available) return;
  root = mkdtempSync(join(tmpdir(), "mesh-stdlib-"));
  for (const pkg of ["http", "email", "urllib"]) cpSync(join(STDLIB, pkg), join(root, pkg), { recursive: true });
  http = await extractScope({ root, scopePaths: ["http/"], gitHistory: false });
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!available)("a standard-library code base (Python 3.11's http, email, urllib)", () => {
  it("resolves http's imports of email and urllib into the root, as references leaving the scope", () => {
    const imports = http.crossScopeReferences.filter((r) => r.kind === "import");
    const resolved = new Set(imports.map((r) => r.resolved_outside).filter((p): p is string => p !== undefined));
    expect(resolved).toContain("email/parser.py");
    expect([...resolved].some((p) => p.startsWith("urllib/"))).toBe(true);
    // Every reference points outside the scope, never back into http/.
    expect([...resolved].every((p) => !p.startsWith("http/"))).toBe(true);
  });

  it("answers a question naming urllib.request from urllib's own code, not from the files importing it", async () => {
    const opened = await openPgc({ scope: "urllib", root, scopePaths: ["urllib/"], cacheRoot: join(root, ".cache"), logger: pino({ level: "silent" }) });
    const pgc = new Pgc("urllib", ["urllib/"], opened);
    const answer = await pgc.ask("How does urllib.request open an HTTP connection with http.client?", { topK: 5 });
    const top = answer.sources.slice(0, 3).map((source) => source.text.split("\n")[0] ?? "");
    expect(answer.sources.every((source) => !/^import: urllib\.request\b/.test(source.text))).toBe(true);
    expect(top.some((line) => /HTTPHandler\.http_open|AbstractHTTPHandler\.do_open/.test(line))).toBe(true);
    expect(top.some((line) => /^import: http\.client\b/.test(line))).toBe(true);
  });

  it("counts a call through another scope's module (email.utils.formatdate after import email.utils) as a call leaving the scope", () => {
    const calls = http.crossScopeReferences.filter((r) => r.kind === "call");
    expect(calls).toContainEqual(expect.objectContaining({ target: "formatdate", from_file: "http/server.py", module: "email.utils" }));
    // http/client.py: `email.parser.Parser(_class=_class).parsestr(hstring)`.
    expect(calls).toContainEqual(expect.objectContaining({ target: "Parser", from_file: "http/client.py" }));
    // A module the root does not hold (socket) is not another scope's: its calls stay out.
    expect(calls.map((c) => c.target)).not.toContain("create_connection");
  });

  it("keeps standard modules the root does not hold (socket, io) out of the references", () => {
    const targets = http.crossScopeReferences.map((r) => r.spec ?? r.target);
    expect(targets).not.toContain("socket");
    expect(targets).not.toContain("io");
  });
});
