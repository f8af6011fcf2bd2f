// The deployment files in deploy/ run the same CLI as everything else: every option they give `mesh
// manager` or `mesh worker` must be one that command has, the required ones must be there, and the
// names that tie the pieces together (the manager's stable name, each worker's advertised name) must agree.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { HELP as MANAGER_HELP } from "../../src/cli/commands/manager.js";
import { HELP as WORKER_HELP } from "../../src/cli/commands/worker.js";

const DEPLOY = fileURLToPath(new URL("../../deploy/", import.meta.url));
const HELP: Record<string, string> = { manager: MANAGER_HELP, worker: WORKER_HELP };
const REQUIRED: Record<string, string[]> = { manager: ["--audit"], worker: ["--scope", "--root"] };

/** The options of `mesh COMMAND …` that its help does not list, and the required ones missing. */
function checkCommand(args: readonly string[]): { command: string; unknown: string[]; missing: string[] } {
  const command = args[0] as string;
  const help = HELP[command];
  if (!help) throw new Error(`not a mesh command the deploy files may run: ${command}`);
  const flags = args.filter((a) => a.startsWith("--"));
  const unknown = flags.filter((f) => !new RegExp(`^\\s+${f}\\b`, "m").test(help));
  const missing = (REQUIRED[command] ?? []).filter((f) => !flags.includes(f));
  if (!flags.includes("--seed") && !flags.includes("--registry")) missing.push("--seed or --registry");
  return { command, unknown, missing };
}

interface K8sObject {
  kind: string;
  metadata: { name: string };
  spec: { serviceName?: string; template?: { spec: { containers: { name: string; args?: string[] }[] } } };
}

const objects: K8sObject[] = readdirSync(join(DEPLOY, "kubernetes"))
  .filter((f) => f.endsWith(".yaml"))
  .flatMap((f) => parseAllDocuments(readFileSync(join(DEPLOY, "kubernetes", f), "utf8")).map((d) => d.toJS() as K8sObject));

const argValue = (args: readonly string[], flag: string) => args[args.indexOf(flag) + 1] ?? "";

describe("deploy/kubernetes", () => {
  const sets = objects.filter((o) => o.kind === "StatefulSet");
  const containers = sets.flatMap((s) => (s.spec.template?.spec.containers ?? []).map((c) => ({ set: s, args: c.args ?? [] })));

  it("runs a manager and workers, each with options their commands have", () => {
    expect(containers.map((c) => c.args[0]).sort()).toEqual(["manager", "worker"]);
    for (const c of containers) expect(checkCommand(c.args)).toEqual({ command: c.args[0], unknown: [], missing: [] });
  });

  it("each StatefulSet has its headless Service, and the names it advertises and seeds resolve to them", () => {
    const services = new Set(objects.filter((o) => o.kind === "Service").map((o) => o.metadata.name));
    for (const s of sets) expect(services.has(s.spec.serviceName as string), s.metadata.name).toBe(true);
    const manager = containers.find((c) => c.args[0] === "manager") as (typeof containers)[number];
    const managerName = `${manager.set.metadata.name}-0.${manager.set.spec.serviceName}`;
    expect(argValue(manager.args, "--advertise")).toBe(`tcp://${managerName}:7000`);
    for (const worker of containers.filter((c) => c.args[0] === "worker")) {
      expect(argValue(worker.args, "--seed")).toMatch(new RegExp(`^tcp://${managerName.replace(/\./g, "\\.")}:7000#`));
      expect(argValue(worker.args, "--advertise")).toBe(`tcp://$(POD_NAME).${worker.set.spec.serviceName}:7100`);
      expect(argValue(worker.args, "--dial")).toBe("manager");
    }
  });
});

describe("deploy/systemd", () => {
  const units = readdirSync(join(DEPLOY, "systemd")).filter((f) => f.endsWith(".service"));

  it("runs mesh manager and mesh worker with options their commands have", () => {
    const commands = units.map((unit) => {
      const exec = /^ExecStart=(.+)$/m.exec(readFileSync(join(DEPLOY, "systemd", unit), "utf8"))?.[1] ?? "";
      const words = exec.split(/\s+/);
      return checkCommand(words.slice(words.findIndex((w) => w.endsWith("/bin/mesh.js")) + 1));
    });
    expect(commands.map((c) => c.command).sort()).toEqual(["manager", "worker"]);
    for (const c of commands) expect(c).toEqual({ command: c.command, unknown: [], missing: [] });
  });
});
