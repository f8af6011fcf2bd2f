// The process-group runner: bounded output, stop plans for short deadlines, and no hang when a
// descendant escapes the group and keeps the pipes open.
import { afterEach, describe, expect, it } from "vitest";
import { tmpdir } from "node:os";
import { runCommand, MAX_LOG_TAIL_BYTES, type RunRequest } from "../../../agents/worker/exec/run-command.js";
import { planStop, DEFAULT_KILL_GRACE_MS, DEFAULT_REPLY_MARGIN_MS } from "../../../agents/worker/exec/stop-plan.js";
import { exists } from "../../fixtures/executors/scripts.js";

const strays: number[] = [];
afterEach(() => {
  for (const pid of strays.splice(0)) if (exists(pid)) process.kill(pid, "SIGKILL");
});

function request(script: string, extra: Partial<RunRequest> = {}): RunRequest {
  return { argv: [process.execPath, "-e", script], cwd: tmpdir(), env: process.env, termAt: Date.now() + 10_000, killGraceMs: 200, ...extra };
}

describe("planStop", () => {
  it("stops ahead of the deadline by the reply margin, SIGTERM a grace period earlier", () => {
    expect(planStop(0, 60_000, { killGraceMs: DEFAULT_KILL_GRACE_MS, replyMarginMs: DEFAULT_REPLY_MARGIN_MS })).toEqual({ termAt: 57_500, killGraceMs: 2_000, killAt: 59_500 });
  });

  it("scales grace and margin down for a short budget, and gives none for a past deadline", () => {
    expect(planStop(0, 500, { killGraceMs: 2_000, replyMarginMs: 500 })).toEqual({ termAt: 350, killGraceMs: 100, killAt: 450 });
    expect(planStop(1_000, 1_000, { killGraceMs: 2_000, replyMarginMs: 500 })).toBeUndefined();
  });
});

describe("runCommand", () => {
  it("keeps only the last 64 KiB of output, ending with the last line", async () => {
    const outcome = await runCommand(request("for (let i = 0; i < 5000; i++) console.log('line ' + i + ' ' + 'x'.repeat(60)); console.error('the end')"));
    expect(outcome.kind).toBe("exited");
    if (outcome.kind !== "exited") return;
    expect(Buffer.byteLength(outcome.output.log)).toBeLessThanOrEqual(MAX_LOG_TAIL_BYTES);
    expect(outcome.output.log).toMatch(/line 4999 x+\n/);
    expect(outcome.output.stderr).toBe("the end\n");
  });

  it("stops a command that prints more than its stdout limit", async () => {
    const outcome = await runCommand(request("setInterval(() => process.stdout.write('y'.repeat(4096)), 1)", { stdoutLimitBytes: 64 * 1024 }));
    expect(outcome.kind).toBe("overflow");
  });

  it("finishes when the leader exits even if an escaped descendant keeps the pipes open", async () => {
    const escape = "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'inherit' }); console.log(c.pid); process.exit(0)";
    const outcome = await runCommand(request(escape));
    expect(outcome).toMatchObject({ kind: "exited", code: 0 });
    if (outcome.kind === "exited") strays.push(Number(outcome.output.log.trim()));
  });

  it("reports a command that cannot be spawned instead of throwing", async () => {
    expect(await runCommand(request("", { argv: ["node", "bad\0arg"] }))).toMatchObject({ kind: "spawn_failed" });
    expect(await runCommand(request("", { argv: ["/nonexistent/cmd"] }))).toMatchObject({ kind: "spawn_failed", errno: "ENOENT" });
  });

  it("does not start a command whose signal is already aborted", async () => {
    expect(await runCommand(request("", { signal: AbortSignal.abort() }))).toMatchObject({ kind: "aborted", pid: undefined });
  });
});
