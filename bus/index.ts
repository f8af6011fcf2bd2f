// Public face of the bus: the node, its options, the wire format and the errors.
export { MeshNode, type RequestOptions, type NodeEvents, type HandleOptions } from "./node.js";
export { parseNodeOptions, type NodeOptions, type NodeOptionsInput, DEFAULT_BIND, DEFAULT_GOSSIP_MS } from "./node-options.js";
export type { RequestContext } from "./request-context.js";
export { DEFAULT_MAX_HOPS } from "./request-context.js";
export type { Handler, Authorizer, AuthorizeRequest } from "./responder.js";
export type { PeerView } from "./membership.js";
export type { PeerState } from "./peer-table.js";
export { DEFAULT_HEARTBEAT_MS, DEFAULT_SUSPECT_MS, DEFAULT_EXPIRE_MS } from "./peer-table.js";
export { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_ATTEMPTS } from "./requester.js";
export { MeshClient, type ClientOptions } from "./client.js";
export { Keyring, newCurveKeys, parseSeed, requireCurve, type CurveKeys, ZAP_DOMAIN, Z85_KEY } from "./curve.js";
export { readRegistry, type RegistryEntry } from "./registry.js";
export * from "./errors.js";
export { NACK_CODES, type NackCode } from "./wire/nack-codes.js";
export { encodeEnvelope, decodeEnvelope } from "./wire/codec.js";
export { encodeFrame, checkFrame, crc32, FRAME_HEADER_BYTES, FRAME_MAGIC, FRAME_VERSION, DEFAULT_MAX_FRAME_BYTES, FRAME_WARN_BYTES } from "./wire/frame.js";
export { ENVELOPE_VERSION, MESSAGE_KINDS, nodeCardSchema, type Envelope, type NodeCard, type MessageKind } from "./wire/schema.js";
