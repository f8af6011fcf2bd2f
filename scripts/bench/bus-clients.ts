// The two clients the bus benchmark compares, behind one interface: a raw zeromq DEALER and a MeshNode.
import { setTimeout as sleep } from "node:timers/promises";
import { Dealer } from "zeromq";
import { Keyring, MeshNode } from "../../bus/index.js";
import type { BenchCurve } from "./bus-run.js";
import { ECHO_OP, type ReadyLine, type ServerMode } from "./bus-echo.js";

/** Generous: a pipelined window of requests queues behind each other, and the machine is shared. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Joining is a HELLO exchange on loopback: milliseconds; the bound only catches a broken server. */
export const JOIN_TIMEOUT_MS = 10_000;
const JOIN_POLL_MS = 5;
const RAW_LINGER_MS = 0;
const MESH_CLIENT_ID = "bench-client";

export interface EchoClient {
  readonly mode: ServerMode;
  /** One request/reply round trip; rejects when the reply is not the body sent. */
  call(): Promise<void>;
  close(): Promise<void>;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * DEALER → ROUTER with nothing on top: no framing, no CRC, no schema, no correlation ids. One connection
 * to a ROUTER that echoes in arrival order delivers replies in request order, so a FIFO of waiters
 * stands in for correlation.
 */
class RawEchoClient implements EchoClient {
  readonly mode = "raw";
  private readonly socket: Dealer;
  private readonly waiters: Waiter[] = [];
  private readonly reader: Promise<void>;
  /** Requests accepted by call() but not yet handed to the socket (one send at a time in zeromq.js). */
  private unsent = 0;
  private sending = false;

  constructor(
    endpoint: string,
    private readonly payload: Buffer,
    curve?: BenchCurve,
  ) {
    const secured = curve ? { curveServerKey: curve.server.publicKey, curvePublicKey: curve.client.publicKey, curveSecretKey: curve.client.secretKey } : {};
    this.socket = new Dealer({ linger: RAW_LINGER_MS, ...secured });
    this.socket.connect(endpoint);
    this.reader = this.readReplies().catch((error: unknown) => this.failAll(error instanceof Error ? error : new Error(String(error))));
  }

  call(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.unsent++;
      if (!this.sending) void this.sendAll();
    });
  }

  async close(): Promise<void> {
    this.socket.close();
    await this.reader;
    this.failAll(new Error("raw client closed"));
  }

  private async sendAll(): Promise<void> {
    this.sending = true;
    try {
      while (this.unsent > 0) {
        this.unsent--;
        await this.socket.send(this.payload);
      }
    } catch (error) {
      this.failAll(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.sending = false;
    }
  }

  private async readReplies(): Promise<void> {
    for await (const [reply] of this.socket) {
      const waiter = this.waiters.shift();
      if (!waiter) continue;
      // A full compare (memcmp of 1 KiB) keeps the baseline honest about delivering the right bytes.
      if (reply !== undefined && reply.equals(this.payload)) waiter.resolve();
      else waiter.reject(new Error(`raw echo returned ${reply?.length ?? 0} bytes that differ from the ${this.payload.length} sent`));
    }
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    this.unsent = 0;
  }
}

/** A full mesh member: frame, CRC-32, msgpack, zod validation, correlation, deadlines and retries. */
class MeshEchoClient implements EchoClient {
  readonly mode = "mesh";

  constructor(
    private readonly node: MeshNode,
    private readonly serverId: string,
    private readonly body: string,
  ) {}

  async call(): Promise<void> {
    const result = await this.node.request(this.serverId, ECHO_OP, this.body, { timeoutMs: REQUEST_TIMEOUT_MS });
    if (result !== this.body) throw new Error(`mesh echo returned ${typeof result} that differs from the body sent`);
  }

  close(): Promise<void> {
    return this.node.stop();
  }

  get counters(): Record<string, number> {
    return this.node.stats.snapshot();
  }
}

async function waitUntilAlive(node: MeshNode, peerId: string): Promise<void> {
  const deadline = Date.now() + JOIN_TIMEOUT_MS;
  while (!node.peers().some((peer) => peer.card.id === peerId && peer.state === "alive")) {
    if (Date.now() > deadline) throw new Error(`${peerId} did not become an alive peer within ${JOIN_TIMEOUT_MS} ms`);
    await sleep(JOIN_POLL_MS);
  }
}

/** A raw client whose first round trip has already succeeded (so the connection is up). */
export async function connectRawClient(server: ReadyLine, body: string, curve?: BenchCurve): Promise<EchoClient> {
  const client = new RawEchoClient(server.endpoint, Buffer.from(body, "utf8"), curve);
  let timer: NodeJS.Timeout | undefined;
  // The raw socket has no deadline of its own: a server that never answers must not hang the run.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no raw echo from ${server.endpoint} within ${JOIN_TIMEOUT_MS} ms`)), JOIN_TIMEOUT_MS);
  });
  try {
    await Promise.race([client.call(), late]);
    return client;
  } catch (error) {
    await client.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A mesh client that joined through the server as its seed, saw it alive, and completed one echo.
 * It binds its own inbox on `bind` (the server dials back there for HELLO and pings only).
 */
export async function connectMeshClient(server: ReadyLine, body: string, bind: string, curve?: BenchCurve, id = MESH_CLIENT_ID): Promise<EchoClient & { counters: Record<string, number> }> {
  const secured = curve ? { curve: { ...curve.client, keyring: new Keyring([curve.server.publicKey, curve.client.publicKey]) } } : {};
  const seed = curve ? `${server.endpoint}#${curve.server.publicKey}` : server.endpoint;
  const node = new MeshNode({ id, role: "bench", bind, seeds: [seed], ...secured });
  const client = new MeshEchoClient(node, server.id, body);
  try {
    await node.start();
    await waitUntilAlive(node, server.id);
    await client.call();
    return client;
  } catch (error) {
    await client.close();
    throw error;
  }
}
