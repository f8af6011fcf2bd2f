// One transport of the bus benchmark: both server processes up, both clients joined, a shared warm-up,
// then interleaved rounds, and everything closed again even when a step fails.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectMeshClient, connectRawClient, type EchoClient } from "./bus-clients.js";
import { echoBody, type ServerMode } from "./bus-echo.js";
import { measurePipelined, measureSequential } from "./bus-measure.js";
import { spawnServer, type ServerProcess } from "./bus-server-process.js";
import { processCpuMicros } from "./stats.js";
import { newCurveKeys, type CurveKeys } from "../../bus/index.js";

/** Throwaway key pairs of one curve run: the server's and the client's, each admitting the other. */
export interface BenchCurve {
  server: CurveKeys;
  client: CurveKeys;
}

/** "curve": tcp with CURVE on both sides (PROTOCOL.md §11a): raw zeromq CURVE sockets, and secured mesh nodes. */
export type Transport = "tcp" | "ipc" | "curve";
export const TRANSPORTS: readonly Transport[] = ["tcp", "ipc", "curve"];
/** Loopback only, ephemeral port: the OS picks a free one and the server reports it. */
const TCP_BIND = "tcp://127.0.0.1:*";

export interface BusBenchConfig {
  quick: boolean;
  rounds: number;
  sequentialRequests: number;
  pipelinedRequests: number;
  warmupSequentialRequests: number;
  warmupPipelinedRequests: number;
  /** Requests in flight at once during the pipelined measurement. */
  window: number;
  bodyBytes: number;
}

export interface ModeFigures {
  rtt_p50_us: number;
  rtt_p99_us: number;
  rps: number;
  /**
   * CPU per request during the sequential measurement (every thread: JavaScript, GC, ZeroMQ's I/O
   * thread), in µs: this client process, and the server process (null without /proc). Steadier than
   * latency on a shared machine, and it says which side a cost is on.
   */
  client_cpu_us: number;
  server_cpu_us: number | null;
}

export interface TransportRun {
  transport: Transport;
  rounds: Record<ServerMode, ModeFigures[]>;
  /** The mesh client's counters after the run: retries or NACKs would mean the figures include recovery. */
  meshCounters: Record<string, number>;
  /**
   * The curve transport only: plain tcp measured in the same rounds, interleaved with the CURVE cases, so
   * that CURVE's cost is a ratio between figures taken at the same moments of a shared machine.
   */
  plain?: Record<ServerMode, ModeFigures[]>;
}

export type Log = (message: string) => void;

async function measureRound(client: EchoClient, server: ServerProcess, config: BusBenchConfig): Promise<ModeFigures> {
  const call = () => client.call();
  const clientBefore = process.cpuUsage();
  const serverBefore = processCpuMicros(server.ready.pid);
  const latency = await measureSequential(call, config.sequentialRequests);
  const clientCpu = process.cpuUsage(clientBefore);
  const serverAfter = processCpuMicros(server.ready.pid);
  const rps = await measurePipelined(call, config.pipelinedRequests, config.window);
  const perRequest = (micros: number) => micros / config.sequentialRequests;
  return {
    rtt_p50_us: latency.p50Us,
    rtt_p99_us: latency.p99Us,
    rps,
    client_cpu_us: perRequest(clientCpu.user + clientCpu.system),
    server_cpu_us: serverBefore === null || serverAfter === null ? null : perRequest(serverAfter - serverBefore),
  };
}

async function warmUp(client: EchoClient, config: BusBenchConfig): Promise<void> {
  const call = () => client.call();
  await measureSequential(call, config.warmupSequentialRequests);
  await measurePipelined(call, config.warmupPipelinedRequests, config.window);
}

/** Close clients before servers so the mesh client's BYE reaches a live peer; never throws. */
async function closeAll(clients: EchoClient[], servers: ServerProcess[], log: Log): Promise<void> {
  for (const client of clients.reverse()) await client.close().catch((error: unknown) => log(`closing the ${client.mode} client failed: ${String(error)}`));
  await Promise.all(servers.map((server) => server.stop().catch((error: unknown) => log(`stopping the ${server.ready.mode} server failed: ${String(error)}`))));
}

export async function runTransport(transport: Transport, config: BusBenchConfig, log: Log): Promise<TransportRun> {
  // ipc sockets go in a fresh private folder, removed at the end whatever happens.
  const ipcDir = transport === "ipc" ? mkdtempSync(join(tmpdir(), "lattice-bench-")) : undefined;
  // Also on process.exit (the entry point exits on SIGINT/SIGTERM), when the finally below never runs.
  const removeIpcDir = () => ipcDir !== undefined && rmSync(ipcDir, { recursive: true, force: true });
  process.once("exit", removeIpcDir);
  const bindFor = (name: string) => (ipcDir === undefined ? TCP_BIND : `ipc://${join(ipcDir, `${name}.sock`)}`);
  const body = echoBody(config.bodyBytes);
  const curve: BenchCurve | undefined = transport === "curve" ? { server: newCurveKeys(), client: newCurveKeys() } : undefined;
  const servers: ServerProcess[] = [];
  const clients: EchoClient[] = [];
  try {
    const start = async (secured: BenchCurve | undefined, suffix: string) => {
      const rawServer = await spawnServer("raw", bindFor(`raw-server${suffix}`), secured);
      servers.push(rawServer);
      const meshServer = await spawnServer("mesh", bindFor(`mesh-server${suffix}`), secured);
      servers.push(meshServer);
      const raw = await connectRawClient(rawServer.ready, body, secured);
      clients.push(raw);
      const mesh = await connectMeshClient(meshServer.ready, body, bindFor(`mesh-client${suffix}`), secured, `bench-client${suffix}`);
      clients.push(mesh);
      log(`${transport}${suffix}: raw server ${rawServer.ready.endpoint} (pid ${rawServer.ready.pid}), mesh server ${meshServer.ready.endpoint} (pid ${meshServer.ready.pid})`);
      return { raw, mesh, servers: new Map<EchoClient, ServerProcess>([[raw, rawServer], [mesh, meshServer]]) };
    };
    const main = await start(curve, "");
    const plain = curve ? await start(undefined, "-plain") : undefined;
    log(`${transport}: warming up`);
    for (const client of clients) await warmUp(client, config);

    const rounds: Record<ServerMode, ModeFigures[]> = { raw: [], mesh: [] };
    const plainRounds: Record<ServerMode, ModeFigures[]> = { raw: [], mesh: [] };
    for (let round = 0; round < config.rounds; round++) {
      // Alternate which mode goes first, so a slow spell of the shared machine does not always hit the same one.
      const sets = plain ? [main, plain] : [main];
      const order = round % 2 === 0 ? sets : [...sets].reverse();
      for (const set of order) {
        for (const client of round % 2 === 0 ? [set.raw, set.mesh] : [set.mesh, set.raw]) {
          const figures = await measureRound(client, set.servers.get(client) as ServerProcess, config);
          (set === main ? rounds : plainRounds)[client.mode].push(figures);
          const label = set === main ? transport : `${transport} (plain tcp)`;
          log(`${label} round ${round + 1}/${config.rounds} ${client.mode}: p50 ${figures.rtt_p50_us.toFixed(1)} µs, p99 ${figures.rtt_p99_us.toFixed(1)} µs, ${Math.round(figures.rps)} req/s, CPU per request ${figures.client_cpu_us.toFixed(0)} µs client / ${figures.server_cpu_us?.toFixed(0) ?? "?"} µs server`);
        }
      }
    }
    return { transport, rounds, meshCounters: main.mesh.counters, ...(plain ? { plain: plainRounds } : {}) };
  } finally {
    await closeAll(clients, servers, log);
    removeIpcDir();
    process.removeListener("exit", removeIpcDir);
  }
}
