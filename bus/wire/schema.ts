// Every message kind, its envelope fields and its body schema, in one place (docs/PROTOCOL.md §3–§4).
import { z } from "zod";
import { NACK_CODE_NAMES } from "./nack-codes.js";

export const ENVELOPE_VERSION = 1;
export const SUPPORTED_ENVELOPE_VERSIONS: readonly number[] = [ENVELOPE_VERSION];

/** Node ids double as ZeroMQ routing ids: printable, short, never starting with a NUL byte. */
export const NODE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/;
export const nodeIdSchema = z.string().regex(NODE_ID_PATTERN, "node id: 1-64 chars of [A-Za-z0-9._:@-], starting alphanumeric");
/** Senders include clients, whose ids are "~" plus a node-id-shaped suffix; they are never mesh members. */
export const SENDER_ID_PATTERN = /^~?[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/;
export const senderIdSchema = z.string().regex(SENDER_ID_PATTERN, "sender id: a node id, or \"~\" and a client id");

const messageIdSchema = z.string().min(1).max(64);
const epochMsSchema = z.number().int().nonnegative();

export const nodeCardSchema = z.object({
  id: nodeIdSchema,
  /** Start time of this process in epoch ms: a restart under the same id has a larger incarnation. */
  incarnation: epochMsSchema,
  role: z.string().min(1).max(32),
  /** Where peers connect to reach this node's ROUTER inbox (may differ from the bind address). */
  endpoint: z.string().min(1).max(256),
  protocols: z.array(z.number().int().positive()).min(1).max(16),
  /** Free-form facts that upper layers publish (scope, index revision, counts…). */
  meta: z.record(z.string(), z.unknown()),
  pid: z.number().int().positive().optional(),
  host: z.string().max(256).optional(),
  /** Revision of the card within an incarnation: +1 each time the node changes it (absent: 0). */
  rev: z.number().int().nonnegative().optional(),
  /** A secured node's CURVE public key (Z85, 40 characters): peers dial it with it as the server key. */
  curve_key: z.string().regex(/^[0-9a-zA-Z.\-:+=^!/*?&<>()[\]{}@%$#]{40}$/).optional(),
});
export type NodeCard = z.infer<typeof nodeCardSchema>;

const remoteErrorSchema = z.object({
  code: z.string().min(1).max(64),
  message: z.string().max(4096),
  retryable: z.boolean(),
  detail: z.unknown().optional(),
});

export const bodySchemas = {
  hello: z.object({ card: nodeCardSchema }),
  ping: z.object({}),
  pong: z.object({}),
  gossip: z.object({ cards: z.array(nodeCardSchema).max(10_000) }),
  bye: z.object({ reason: z.string().max(256).optional() }),
  request: z.object({ op: z.string().min(1).max(64), args: z.unknown() }),
  reply: z.union([
    z.object({ result: z.unknown(), error: z.undefined().optional() }),
    z.object({ error: remoteErrorSchema }),
  ]),
  nack: z.object({
    code: z.enum(NACK_CODE_NAMES),
    detail: z.string().max(1024),
    retryable: z.boolean(),
    retry_after_ms: z.number().int().nonnegative().optional(),
  }),
  cancel: z.object({}),
} as const;

export type MessageKind = keyof typeof bodySchemas;
export const MESSAGE_KINDS = Object.keys(bodySchemas) as MessageKind[];
export type BodyOf<K extends MessageKind> = z.infer<(typeof bodySchemas)[K]>;

export const envelopeHeaderSchema = z.object({
  v: z.number().int(),
  kind: z.string().min(1).max(32),
  id: messageIdSchema,
  from: senderIdSchema,
  inc: epochMsSchema,
  corr: messageIdSchema.optional(),
  deadline: epochMsSchema.optional(),
  hops: z.number().int().nonnegative().max(255).optional(),
  max_hops: z.number().int().nonnegative().max(255).optional(),
  path: z.array(senderIdSchema).max(256).optional(),
  trace: z.string().max(64).optional(),
  /** A client's proof of its CURVE key on a request to a secured node (PROTOCOL.md §11b). */
  auth: z
    .object({
      key: z.string().regex(/^[0-9a-zA-Z.\-:+=^!/*?&<>()[\]{}@%$#]{40}$/),
      mac: z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.length === 32, "auth.mac: 32 bytes (bin)"),
    })
    .optional(),
  body: z.unknown(),
});

/** An envelope whose header passed validation and whose body is not checked yet. */
export type DecodedHeader = z.infer<typeof envelopeHeaderSchema>;
type EnvelopeHeader = Omit<DecodedHeader, "kind" | "body">;

/** A decoded, validated message: the discriminant `kind` narrows `body`. */
export type Envelope = { [K in MessageKind]: EnvelopeHeader & { kind: K; body: BodyOf<K> } }[MessageKind];
export type EnvelopeOf<K extends MessageKind> = Extract<Envelope, { kind: K }>;
