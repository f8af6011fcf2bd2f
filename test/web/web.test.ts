// `mesh web` in a real browser (Debian's chromium through puppeteer-core) over a real fleet of worker
// processes: the graph shows every scope and edge, a question asked in the ask box is drawn on the graph
// and listed as its chain, a worker killed shows in the agents table and the graph, an answer asked from
// the CLI reaches the page's feed, and nothing is served without the token. Screenshots go to
// test-results/ (git-ignored). Skipped with a message where no Chromium is installed. Code run in the page
// reaches its globals through globalThis: this file is typed for Node, not the DOM.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Browser, Page } from "puppeteer-core";
import { C_KERNEL_DIR } from "../fixtures/fixture-paths.js";
import { MESH_BIN, meshCli, processAlive } from "../helpers/processes.js";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
if (!CHROMIUM) console.warn("test/web: no Chromium found (apt-get install chromium); the browser tests are skipped");
const SHOTS = join(process.cwd(), "test-results");
const QUESTION = "How does the e1000 driver allocate DMA buffers?";

const home = mkdtempSync(join(tmpdir(), "mesh-home-web-"));
const root = join(home, "code");
const env = { ...process.env, MESH_HOME: home };
const cli = meshCli(env);
const mesh = (...args: string[]) => cli(args);

interface Fleet {
  workers: { id: string; pid: number; scope: string }[];
  manager: { pid: number; supervisor?: number } | null;
}
const fleetFile = () => JSON.parse(readFileSync(join(home, "fleets", readdirSync(join(home, "fleets"))[0] as string, "fleet.json"), "utf8")) as Fleet;

let web: ChildProcess | undefined;
let url = "";
let browser: Browser | undefined;
let page: Page;
let pids: number[] = [];
let waitedForFleet = false;

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(SHOTS, { recursive: true });
  cpSync(C_KERNEL_DIR, root, { recursive: true });
  // The page is opened before the fleet starts: it says it waits, then fills in when the fleet is up.
  web = spawn(process.execPath, [MESH_BIN, "web", "--json"], { env, stdio: ["ignore", "pipe", "pipe"] });
  url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: web!.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
    web!.once("exit", (code) => reject(new Error(`mesh web exited (${code})`)));
  });
  const { launch } = await import("puppeteer-core");
  browser = await launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 860 });
  await page.goto(url);
  await page.waitForFunction(() => /waiting for the fleet: no fleet is running/.test((globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } } }).document.getElementById("status").textContent ?? ""), { timeout: 20_000 });
  waitedForFleet = true;
  const up = await mesh("up", root, "--json");
  expect(up.code, up.stderr).toBe(0);
  const fleet = fleetFile();
  pids = [...fleet.workers.map((w) => w.pid), fleet.manager?.pid ?? -1, fleet.manager?.supervisor ?? -1];
}, 180_000);

afterAll(async () => {
  await browser?.close();
  web?.kill("SIGTERM");
  if (CHROMIUM) await mesh("down", root);
  for (const pid of pids) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!CHROMIUM)("mesh web in a real browser", () => {
  it("refuses every request without the token, the page included", async () => {
    const bare = new URL(url);
    bare.search = "";
    for (const path of ["/", "/app.js", "/api/agents", "/api/topology", "/events"]) {
      const res = await fetch(new URL(path, bare));
      expect(res.status, path).toBe(401);
      expect(await res.text()).not.toMatch(/drivers|e1000/);
    }
    const wrong = await fetch(new URL("/api/agents?token=nope", bare));
    expect(wrong.status).toBe(401);
  });

  it("draws every scope and edge of the topology, coloured by health, on a page opened before the fleet started", async () => {
    expect(waitedForFleet).toBe(true);
    const topology = JSON.parse((await mesh("topology", "--format", "json")).stdout) as { scopes: { name: string }[]; edges: { from: string; to: string }[] };
    await page.waitForFunction((n: number) => (globalThis as unknown as { meshView: { cy: { nodes(): { length: number } } } }).meshView.cy.nodes().length === n, { timeout: 20_000 }, topology.scopes.length);
    // The topology and the agents' health arrive separately: the colours follow the nodes, not with them.
    await page
      .waitForFunction(() => (globalThis as unknown as { meshView: { cy: { nodes(): { every(f: (n: { hasClass(c: string): boolean }) => boolean): boolean } } } }).meshView.cy.nodes().every((n) => n.hasClass("healthy")), { timeout: 20_000 })
      .catch(() => undefined);
    const drawn = await page.evaluate(() => {
      const cy = (globalThis as unknown as { meshView: { cy: { nodes(): { map<T>(f: (n: { id(): string; hasClass(c: string): boolean }) => T): T[] }; edges(): { map<T>(f: (e: { data(k: string): string }) => T): T[] } } } }).meshView.cy;
      return { nodes: cy.nodes().map((n) => n.id()).sort(), healthy: cy.nodes().map((n) => n.hasClass("healthy")), edges: cy.edges().map((e) => `${e.data("source")}->${e.data("target")}`).sort() };
    });
    expect(drawn.nodes).toEqual(topology.scopes.map((s) => s.name).sort());
    expect(drawn.edges).toEqual(topology.edges.map((e) => `${e.from}->${e.to}`).sort());
    expect(drawn.healthy.every(Boolean)).toBe(true);
    await page.waitForSelector("#agents tbody tr");
    expect(await page.$$eval("#agents tbody tr", (rows) => rows.length)).toBe(fleetFile().workers.length);
    // A scope clicked: its agents, files, size, index and the symbols other scopes use most.
    await page.evaluate(() => (globalThis as unknown as { meshView: { cy: { getElementById(id: string): { emit(e: string): void } } } }).meshView.cy.getElementById("kernel").emit("tap"));
    const detail = await page.$eval("#scope-detail", (el) => el.textContent ?? "");
    expect(detail).toMatch(/^kernel: 1 agent\(s\), 1 alive/);
    expect(detail).toMatch(/files: kernel\//);
    expect(detail).toMatch(/\d+ lines · \d+ documents · \d+ symbols/);
    expect(detail).toMatch(/most used by other scopes: .*dma_alloc_coherent/);
    await page.screenshot({ path: join(SHOTS, "web-topology.png") });
  });

  it("asks a question from the ask box, lists its traced chain and draws its path on the graph", async () => {
    await page.type("#question", QUESTION);
    await page.click("#ask-button");
    await page.waitForSelector("ol#chain li", { timeout: 30_000 });
    const steps = await page.$$eval("ol#chain li", (items) => items.map((li) => ({ text: li.textContent ?? "", scope: (li as unknown as { dataset: Record<string, string | undefined> }).dataset["scope"] ?? "" })));
    expect(steps.length).toBeGreaterThan(1);
    expect(steps[0]?.text).toMatch(/e1000_\w+ \(drivers\/net\/e1000\/e1000_main\.c:\d+-\d+\) \[drivers\]/);
    const scopes = [...new Set(steps.map((s) => s.scope))];
    await page.waitForFunction((wanted: string[]) => wanted.every((s) => (globalThis as unknown as { meshView: { cy: { getElementById(id: string): { hasClass(c: string): boolean } } } }).meshView.cy.getElementById(s).hasClass("on-path")), { timeout: 10_000 }, scopes);
    expect(await page.$eval("#answer-meta", (el) => el.textContent)).toMatch(/chain/);
    // Its hops reached the page while the answer was still being searched.
    await page.waitForFunction(() => (globalThis as unknown as { meshView: { state: { live: string[] } } }).meshView.state.live.includes("drivers"), { timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, "web-answer.png") });
  });

  it("opens a step's cited lines with their hash check, and says so when the code changed since", async () => {
    await page.click("ol#chain li:first-child");
    await page.waitForSelector("#cite-head.match", { timeout: 10_000 });
    expect(await page.$eval("#cite-head", (el) => el.textContent)).toMatch(/drivers\/net\/e1000\/e1000_main\.c:\d+-\d+ — ✓/);
    expect(await page.$eval("pre#cite-lines", (el) => el.textContent)).toMatch(/e1000_\w+/);
    const file = join(root, "drivers", "net", "e1000", "e1000_main.c");
    writeFileSync(file, `/* a line added after the answer */\n${readFileSync(file, "utf8")}`);
    await page.click("ol#chain li:first-child");
    await page.waitForSelector("#cite-head.changed", { timeout: 10_000 });
    expect(await page.$eval("#cite-head", (el) => el.textContent)).toMatch(/changed since the answer/);
    await page.screenshot({ path: join(SHOTS, "web-citation-changed.png") });
  });

  it("browses the audit: answers and delegations, filtered by scope and verdict", async () => {
    const delegated = await mesh("delegate", "--scope", "mm", "--task", "Where is alloc_pages defined?", "--criteria", "names alloc_pages", "--json");
    expect(delegated.code, delegated.stderr).toBe(0);
    await page.select("#audit-scope", "mm");
    await page.click("#audit-form button");
    // The table once it answers the filter (an unfiltered refresh, after the delegation's event, may come back later: it is not drawn).
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document;
      return doc.querySelectorAll('#audit tbody[data-query="scope=mm"] tr[data-kind="task"]').length > 0;
    }, { timeout: 10_000 });
    const rows = await page.$$eval("#audit tbody tr", (trs) => trs.map((tr) => Array.from(tr.children as unknown as { textContent: string | null }[]).map((td) => td.textContent ?? "")));
    for (const row of rows) expect(row[2]).toContain("mm");
    await page.select("#audit-verdict", "rejected");
    await page.click("#audit-form button");
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document;
      return doc.querySelectorAll('#audit tbody[data-query="scope=mm&verdict=rejected"]').length === 1 && doc.querySelectorAll('#audit tbody tr[data-kind="task"]').length === 0;
    }, { timeout: 10_000 });
  });

  it("shows an answer asked from the CLI in its feed, live", async () => {
    const asked = await mesh("ask", "Who calls kmalloc?", "--json");
    expect(asked.code, asked.stderr).toBe(0);
    const id = (JSON.parse(asked.stdout) as { id: string }).id;
    await page.waitForSelector(`ul#feed li[data-id="${id}"]`, { timeout: 15_000 });
    expect(await page.$eval(`ul#feed li[data-id="${id}"]`, (li) => li.textContent)).toMatch(/Who calls kmalloc\?/);
  });

  it("shows a worker killed with SIGKILL as no longer alive, in the table and on the graph", async () => {
    const victim = fleetFile().workers.find((w) => w.scope === "mm");
    expect(victim).toBeDefined();
    process.kill(victim!.pid, "SIGKILL");
    await page.waitForFunction(
      (id: string) => {
        const doc = (globalThis as unknown as { document: { querySelector(selector: string): { textContent: string | null } | null } }).document;
        const cell = doc.querySelector(`#agents tr[data-agent="${id}"] td:nth-child(4)`);
        return cell !== null && cell.textContent !== "alive";
      },
      { timeout: 30_000 },
      victim!.id,
    );
    await page.waitForFunction(() => !(globalThis as unknown as { meshView: { cy: { getElementById(id: string): { hasClass(c: string): boolean } } } }).meshView.cy.getElementById("mm").hasClass("healthy"), { timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, "web-worker-down.png") });
  });
});
