// Options of a mesh node, parsed once at the edge into a frozen object with named defaults.
import { z } from "zod";
import type { Logger } from "pino";
import { BusConfigError } from "./errors.js";
import { DEFAULT_MAX_CONCURRENT, DEFAULT_MAX_QUEUED } from "./bulkhead.js";
import { DEFAULT_EXPIRE_MS, DEFAULT_HEARTBEAT_MS, DEFAULT_SUSPECT_MS } from "./peer-table.js";
import { DEFAULT_REPLY_CACHE_MAX_ENTRIES, DEFAULT_REPLY_CACHE_TTL_MS } from "./reply-cache.js";
import { DEFAULT_ATTEMPTS, DEFAULT_REQUEST_TIMEOUT_MS } from "./requester.js";
import { DEFAULT_MAX_FRAME_BYTES } from "./wire/frame.js";
import { nodeIdSchema } from "./wire/schema.js";
import { Keyring, parseSeed, Z85_KEY } from "./curve.js";

export const DEFAULT_BIND = "tcp://127.0.0.1:*";
export const DEFAULT_GOSSIP_MS = 2_000;
export const DEFAULT_SEND_QUEUE_CAPACITY = 1_000;
export const DEFAULT_LINGER_MS = 200;
export const DEFAULT_DRAIN_TIMEOUT_MS = 5_000;

const positiveMs = z.number().int().positive();

export const nodeOptionsSchema = z
  .object({
    id: nodeIdSchema,
    role: z.string().min(1).max(32).default("node"),
    bind: z.string().min(1).default(DEFAULT_BIND),
    /** Endpoint published in the card when peers must use another address than the bound one. */
    advertise: z.string().min(1).optional(),
    seeds: z.array(z.string().min(1)).default([]),
    registryDir: z.string().min(1).optional(),
    /**
     * Roles this node connects to when it only hears of a peer (registry entry, gossip). A peer of any
     * other role becomes a member only when it says HELLO itself. Unset: every role (a full mesh). A fleet's
     * workers dial only the manager, so N workers cost N links and heartbeats, not N².
     */
    dialRoles: z.array(z.string().min(1).max(32)).min(1).optional(),
    meta: z.record(z.string(), z.unknown()).default({}),
    maxFrameBytes: z.number().int().min(1024).default(DEFAULT_MAX_FRAME_BYTES),
    heartbeatMs: positiveMs.default(DEFAULT_HEARTBEAT_MS),
    suspectMs: positiveMs.default(DEFAULT_SUSPECT_MS),
    expireMs: positiveMs.default(DEFAULT_EXPIRE_MS),
    gossipMs: positiveMs.default(DEFAULT_GOSSIP_MS),
    sendQueueCapacity: z.number().int().positive().default(DEFAULT_SEND_QUEUE_CAPACITY),
    maxConcurrent: z.number().int().positive().default(DEFAULT_MAX_CONCURRENT),
    maxQueued: z.number().int().nonnegative().default(DEFAULT_MAX_QUEUED),
    replyCacheTtlMs: positiveMs.default(DEFAULT_REPLY_CACHE_TTL_MS),
    replyCacheMaxEntries: z.number().int().positive().default(DEFAULT_REPLY_CACHE_MAX_ENTRIES),
    requestTimeoutMs: positiveMs.default(DEFAULT_REQUEST_TIMEOUT_MS),
    attempts: z.number().int().min(1).max(10).default(DEFAULT_ATTEMPTS),
    lingerMs: z.number().int().nonnegative().default(DEFAULT_LINGER_MS),
    drainTimeoutMs: z.number().int().nonnegative().default(DEFAULT_DRAIN_TIMEOUT_MS),
    /**
     * CURVE: this node's key pair and the keyring of admitted public keys. Every connection in and out is
     * encrypted; only peers and clients whose key is in the keyring get in. Seeds are then given as
     * `ENDPOINT#PUBLICKEY`.
     */
    curve: z
      .object({
        publicKey: z.string().regex(Z85_KEY),
        secretKey: z.string().regex(Z85_KEY),
        keyring: z.custom<Keyring>((value) => value instanceof Keyring, "a Keyring"),
      })
      .optional(),
  })
  .refine((o) => o.heartbeatMs < o.suspectMs && o.suspectMs < o.expireMs, {
    message: "liveness thresholds must satisfy heartbeatMs < suspectMs < expireMs",
  })
  .refine((o) => !o.curve || o.seeds.every((seed) => Z85_KEY.test(parseSeed(seed).key ?? "")), {
    message: "a secured node's seeds must be given as ENDPOINT#PUBLICKEY (the seed's CURVE public key)",
  });

export type NodeOptionsInput = z.input<typeof nodeOptionsSchema> & { logger?: Logger };
export type NodeOptions = Readonly<z.output<typeof nodeOptionsSchema>>;

export function parseNodeOptions(input: NodeOptionsInput): NodeOptions {
  const { logger: _logger, ...rest } = input;
  const parsed = nodeOptionsSchema.safeParse(rest);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ");
    throw new BusConfigError(`invalid node options: ${detail}`);
  }
  return Object.freeze({ ...parsed.data, seeds: Object.freeze([...parsed.data.seeds]) as string[] });
}
