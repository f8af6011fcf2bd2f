// Fault injection at the byte level: a user-space TCP proxy between two hosts of a fleet (tc netem is not
// available on these machines). It sees what the network would: CURVE-encrypted ZMTP bytes, in chunks as
// the kernel hands them over. Faults, per direction and per chunk:
//   delay     every chunk held `delayMs` ± `jitterMs` (order kept: a connection is one stream)
//   loss      a chunk "lost" arrives after a retransmission timeout (LOSS_RTO_MS), as TCP delivers it:
//             a byte stream loses nothing, it stalls
//   corrupt   one byte of a chunk flipped: CURVE's MAC fails, the peer drops the connection, ZeroMQ
//             reconnects, and what was in flight is retried by the mesh
//   partition every connection cut and new ones refused until heal()
// The random choices come from a seeded generator, so a run can be repeated.
import { createServer, connect, type Server, type Socket } from "node:net";
import { mulberry32 } from "../../agents/pgc/retrieval/prng.js";

/** What a lost segment costs TCP: Linux's minimum retransmission timeout. */
export const LOSS_RTO_MS = 200;

export interface Faults {
  delayMs?: number;
  jitterMs?: number;
  /** Share of chunks that arrive only after LOSS_RTO_MS, 0–1. */
  loss?: number;
  /** Share of chunks with one byte flipped, 0–1. */
  corrupt?: number;
}

export interface ProxyStats {
  connections: number;
  chunks: number;
  bytes: number;
  delayed: number;
  lost: number;
  corrupted: number;
  refused: number;
}

export interface TcpProxy {
  /** `tcp://HOST:PORT` to give peers instead of the target. */
  endpoint: string;
  port: number;
  stats: ProxyStats;
  setFaults(faults: Faults): void;
  /** Cut every connection and refuse new ones. */
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

function parseTcp(endpoint: string): { host: string; port: number } {
  const match = /^tcp:\/\/(.+):(\d+)$/.exec(endpoint);
  if (!match) throw new Error(`not a tcp://HOST:PORT endpoint: ${endpoint}`);
  return { host: match[1] as string, port: Number(match[2]) };
}

/**
 * One direction of a connection: chunks leave in order, each no earlier than its own release time (a later
 * chunk with a shorter delay waits for the one before it, as a stream must).
 */
class Pipe {
  private queue: { at: number; chunk: Buffer }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly to: Socket) {}

  push(chunk: Buffer, delayMs: number): void {
    const last = this.queue.at(-1)?.at ?? 0;
    this.queue.push({ at: Math.max(Date.now() + delayMs, last), chunk });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.queue.length === 0) return;
    const wait = Math.max(0, (this.queue[0] as { at: number }).at - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = Date.now();
      while (this.queue.length > 0 && (this.queue[0] as { at: number }).at <= now) {
        const { chunk } = this.queue.shift() as { chunk: Buffer };
        if (!this.to.destroyed) this.to.write(chunk);
      }
      this.schedule();
    }, wait);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }
}

/** Where the proxy connects: a tcp://HOST:PORT endpoint, or an ipc:// path (a node bound privately behind it). */
function targetOf(target: string): { port: number; host: string } | { path: string } {
  return target.startsWith("ipc://") ? { path: target.slice("ipc://".length) } : parseTcp(target);
}

export async function startTcpProxy(target: string, options: { listen?: string; seed?: number; faults?: Faults } = {}): Promise<TcpProxy> {
  const to = targetOf(target);
  const listen = parseTcp(options.listen ?? "tcp://127.0.0.1:0");
  const random = mulberry32(options.seed ?? 1);
  let faults: Faults = options.faults ?? {};
  let partitioned = false;
  const stats: ProxyStats = { connections: 0, chunks: 0, bytes: 0, delayed: 0, lost: 0, corrupted: 0, refused: 0 };
  const open = new Set<{ a: Socket; b: Socket; pipes: Pipe[] }>();

  const relay = (chunk: Buffer, pipe: Pipe): void => {
    stats.chunks++;
    stats.bytes += chunk.length;
    let out = chunk;
    if (faults.corrupt && random() < faults.corrupt) {
      out = Buffer.from(chunk);
      const at = Math.floor(random() * out.length);
      out[at] = (out[at] ?? 0) ^ 0x20;
      stats.corrupted++;
    }
    let delay = faults.delayMs ?? 0;
    if (faults.jitterMs) delay = Math.max(0, delay + (random() * 2 - 1) * faults.jitterMs);
    if (delay > 0) stats.delayed++;
    if (faults.loss && random() < faults.loss) {
      delay += LOSS_RTO_MS;
      stats.lost++;
    }
    pipe.push(out, delay);
  };

  const server: Server = createServer((client) => {
    if (partitioned) {
      stats.refused++;
      client.destroy();
      return;
    }
    stats.connections++;
    const upstream = connect(to);
    const pair = { a: client, b: upstream, pipes: [new Pipe(upstream), new Pipe(client)] };
    open.add(pair);
    const [toTarget, toClient] = pair.pipes as [Pipe, Pipe];
    client.on("data", (chunk: Buffer) => relay(chunk, toTarget));
    upstream.on("data", (chunk: Buffer) => relay(chunk, toClient));
    const end = () => {
      for (const pipe of pair.pipes) pipe.stop();
      client.destroy();
      upstream.destroy();
      open.delete(pair);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : listen.port;
  const cutAll = () => {
    for (const pair of [...open]) {
      for (const pipe of pair.pipes) pipe.stop();
      pair.a.destroy();
      pair.b.destroy();
      open.delete(pair);
    }
  };
  return {
    endpoint: `tcp://${listen.host}:${port}`,
    port,
    stats,
    setFaults: (next) => {
      faults = next;
    },
    partition: () => {
      partitioned = true;
      cutAll();
    },
    heal: () => {
      partitioned = false;
    },
    close: async () => {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
