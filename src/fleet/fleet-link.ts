// How a long-lived client (the MCP server, a running plan) reaches a fleet: the one named with --fleet
// ROOT, or the only one running, found again on every call (a fleet started, restarted or stopped
// meanwhile is seen at the next call), with one bus client per manager endpoint while it stays the same.
import type { Logger } from "pino";
import { AuthRefusedError, MeshClient } from "../../bus/index.js";
import { findFleet } from "./find-fleet.js";
import { fleetClientCurve } from "../security.js";
import type { FleetManifest } from "./fleet-dir.js";

export const MCP_REQUEST_TIMEOUT_MS = 120_000;

export interface FleetRequestOptions {
  timeoutMs?: number;
  /** Cancels the request on the bus (a CANCEL to the manager, which cancels the task on its worker). */
  signal?: AbortSignal;
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

  /** One request to the fleet's manager. */
  async request(op: string, args: unknown, options: FleetRequestOptions = {}): Promise<unknown> {
    const { dir, fleet } = await this.fleet();
    const endpoint = fleet.manager?.endpoint;
    if (!endpoint) throw Object.assign(new Error(`the fleet for ${fleet.root} has no manager`), { code: "no_manager", hint: `restart it with \`mesh up ${fleet.root}\`` });
    if (this.endpoint !== endpoint) {
      await this.close();
      this.client = new MeshClient({ endpoint, timeoutMs: MCP_REQUEST_TIMEOUT_MS, attempts: 1, logger: this.logger, ...fleetClientCurve(dir) });
      this.endpoint = endpoint;
    }
    try {
      return await (this.client as MeshClient).request(op, args, { timeoutMs: options.timeoutMs ?? MCP_REQUEST_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      // A refused key ends that connection for good: the next call dials again (the key may be admitted by then).
      if (error instanceof AuthRefusedError) await this.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.endpoint = null;
    await client?.close().catch(() => undefined);
  }
}
