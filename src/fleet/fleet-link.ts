// How a long-lived client (the MCP server, a running plan) reaches a fleet: the one named with --fleet
// ROOT, or the only one running, found again on every call (a fleet started, restarted or stopped
// meanwhile is seen at the next call), with one bus client per manager endpoint while it stays the same.
import type { Logger } from "pino";
import { AuthRefusedError, MeshClient } from "../../bus/index.js";
import { findFleet, watchSuccessor } from "./find-fleet.js";
import { fleetClientCurve } from "../security.js";
import type { FleetManifest } from "./fleet-dir.js";

export const MCP_REQUEST_TIMEOUT_MS = 120_000;

export interface FleetRequestOptions {
  timeoutMs?: number;
  /** Cancels the request on the bus (a CANCEL to the manager, which cancels the task on its worker). */
  signal?: AbortSignal;
  /**
   * When the manager is replaced while the request waits (it died; `mesh up` started another), send this
   * to the new one instead — an op that gets the same outcome by id (`delegation {task_id}`). Without it,
   * the request itself is sent again (right for reads and questions).
   */
  recover?: { op: string; args: unknown };
}

export class FleetLink {
  private client: MeshClient | null = null;
  private endpoint: string | null = null;

  constructor(
    private readonly root: string | undefined,
    private readonly logger: Logger,
  ) {}

  /** The fleet this server acts on now; a CliError (no fleet, several, a lost manager) when there is none. */
  async fleet(): Promise<{ dir: string; fleet: FleetManifest }> {
    return findFleet(this.root);
  }

  /** One request to the fleet's manager; it follows the fleet to a new manager that replaces a dead one. */
  async request(op: string, args: unknown, options: FleetRequestOptions = {}): Promise<unknown> {
    const deadline = Date.now() + (options.timeoutMs ?? MCP_REQUEST_TIMEOUT_MS);
    let sending = { op, args };
    for (;;) {
      const { dir, fleet } = await this.fleet();
      const manager = fleet.manager;
      if (!manager) throw Object.assign(new Error(`the fleet for ${fleet.root} has no manager`), { code: "no_manager", hint: `restart it with \`mesh up ${fleet.root}\`` });
      if (this.endpoint !== manager.endpoint) {
        await this.close();
        this.client = new MeshClient({ endpoint: manager.endpoint, timeoutMs: MCP_REQUEST_TIMEOUT_MS, attempts: 1, logger: this.logger, ...fleetClientCurve(dir) });
        this.endpoint = manager.endpoint;
      }
      // While it waits, watch whether another manager takes over (src/fleet/find-fleet.ts, askManagerSurviving).
      const replaced = new AbortController();
      const onCancel = () => replaced.abort();
      options.signal?.addEventListener("abort", onCancel, { once: true });
      if (options.signal?.aborted) replaced.abort();
      let successor = false;
      const stopWatching = watchSuccessor(dir, manager.pid, () => {
        successor = true;
        replaced.abort();
      });
      try {
        return await (this.client as MeshClient).request(sending.op, sending.args, { timeoutMs: Math.max(1, deadline - Date.now()), signal: replaced.signal });
      } catch (error) {
        if (successor && !options.signal?.aborted) {
          this.logger.warn({ old: manager.pid }, "the fleet's manager was replaced; asking the new one");
          await this.close();
          sending = options.recover ?? { op, args };
          continue;
        }
        if (options.recover && sending === options.recover && (error as { code?: string }).code === "not_found") {
          sending = { op, args }; // the old manager died before it journaled the request: send it again
          continue;
        }
        // A refused key ends that connection for good: the next call dials again (the key may be admitted by then).
        if (error instanceof AuthRefusedError) await this.close();
        throw error;
      } finally {
        stopWatching();
        options.signal?.removeEventListener("abort", onCancel);
      }
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.endpoint = null;
    await client?.close().catch(() => undefined);
  }
}
