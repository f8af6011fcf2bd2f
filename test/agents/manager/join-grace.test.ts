// A manager that has just started has not heard from its fleet's workers yet: a task sent to it in that
// gap waits for a worker of its scope to join (up to JOIN_GRACE_MS after the start, and never past the
// task's own timeout) instead of failing with "no worker". After the grace a scope with no worker is
// refused at once, and a client that gives up while its task waits leaves nothing behind.
// Real processes: the worker is a `mesh worker` started only once the task is waiting.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import pino from "pino";
import type { MeshNode } from "../../../bus/index.js";
import { Manager } from "../../../agents/manager/manager.js";
import { TestFleet } from "../../helpers/fleet.js";

const logger = pino({ level: "silent" });
const fleet = new TestFleet();
let node: MeshNode;
const grounded = { strategy: "pgc_cite" as const, evidence_required: true };

beforeAll(async () => {
  node = await fleet.node("manager");
}, 60_000);

afterAll(async () => {
  await fleet.stop();
});

const listeners = () => node.listenerCount("peer:join") + node.listenerCount("peer:state");

describe("a task sent to a manager before its scope's workers have joined", () => {
  it("past the grace, is refused at once with no worker, naming the scope", async () => {
    const manager = new Manager({ node, auditDir: join(fleet.dir, "audit-late"), logger, joinGraceMs: 0 });
    await expect(manager.delegate({ id: "T-late", task: "alloc_pages", acceptance_criteria: [], grounding: grounded }, { scope: "mm" })).rejects.toMatchObject({ name: "NoWorkerError", code: "no_route", message: expect.stringContaining('no worker of scope "mm"') });
    expect(listeners()).toBe(0);
  });

  it("when its client gives up while it waits, ends with no worker and leaves no listener behind", async () => {
    const manager = new Manager({ node, auditDir: join(fleet.dir, "audit-cancel"), logger, joinGraceMs: 60_000 });
    const cancel = new AbortController();
    const pending = manager.delegate({ id: "T-cancel", task: "alloc_pages", acceptance_criteria: [], grounding: grounded }, { scope: "mm", signal: cancel.signal });
    await expect.poll(listeners).toBe(2);
    cancel.abort();
    await expect(pending).rejects.toMatchObject({ name: "NoWorkerError" });
    expect(listeners()).toBe(0);
  });

  it("within the grace, waits for a worker of the scope to join and completes on it, once", { timeout: 90_000 }, async () => {
    const manager = new Manager({ node, auditDir: join(fleet.dir, "audit"), logger, joinGraceMs: 60_000 });
    let settled = false;
    const pending = manager.delegate({ id: "T-early", task: "alloc_pages", acceptance_criteria: [], grounding: grounded }, { scope: "mm", timeoutMs: 60_000 });
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Waiting, not refused: its listeners are on the node and it has not settled.
    await expect.poll(listeners).toBe(2);
    expect(settled).toBe(false);
    const worker = await fleet.startWorker("mm");
    const result = await pending;
    expect(result.agent.id).toBe(worker.id);
    expect(result.agent.scope).toBe("mm");
    expect(result.response.status).toBe("completed");
    expect(result.verdict.status).not.toBe("rejected");
    expect(listeners()).toBe(0);
    const journal = manager.journal.unfinished();
    expect(journal).toEqual([]);
  });
});
