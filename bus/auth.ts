// Who sent a request, on a secured node: a client proves its CURVE key with a MAC over the request's
// identity (docs/PROTOCOL.md §11b). The MAC's key is the X25519 shared secret of the client's secret key
// and the node's public key, which only the two of them can compute; the CURVE channel around it already
// hides and protects the bytes, so the MAC only has to bind the key to this request.
import { createHmac, createPrivateKey, createPublicKey, diffieHellman, timingSafeEqual, type KeyObject } from "node:crypto";
import type { CurveKeys } from "./curve.js";

export const AUTH_MAC_BYTES = 32;
const AUTH_LABEL = "lattice-mesh/auth/1";
const Z85_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
const Z85_VALUE = new Map([...Z85_CHARS].map((c, i) => [c, i]));

/** The 32 bytes of a Z85 key (ZeroMQ RFC 32). */
export function z85Decode(text: string): Buffer {
  if (text.length % 5 !== 0) throw new Error("a Z85 string has a multiple of 5 characters");
  const out = Buffer.alloc((text.length / 5) * 4);
  for (let i = 0; i < text.length; i += 5) {
    let value = 0;
    for (let j = 0; j < 5; j++) {
      const digit = Z85_VALUE.get(text[i + j] as string);
      if (digit === undefined) throw new Error(`not a Z85 character: ${JSON.stringify(text[i + j])}`);
      value = value * 85 + digit;
    }
    out.writeUInt32BE(value, (i / 5) * 4);
  }
  return out;
}

function publicKeyObject(z85: string): KeyObject {
  return createPublicKey({ key: { kty: "OKP", crv: "X25519", x: z85Decode(z85).toString("base64url") }, format: "jwk" });
}

/** X25519(own secret, their public): the same 32 bytes on both sides (RFC 7748; libsodium's crypto_scalarmult). */
export function sharedSecret(own: CurveKeys, theirPublic: string): Buffer {
  const privateKey = createPrivateKey({ key: { kty: "OKP", crv: "X25519", d: z85Decode(own.secretKey).toString("base64url"), x: z85Decode(own.publicKey).toString("base64url") }, format: "jwk" });
  return diffieHellman({ privateKey, publicKey: publicKeyObject(theirPublic) });
}

export interface AuthFields {
  id: string;
  from: string;
  trace: string;
  op: string;
}

/** HMAC-SHA256(shared, "lattice-mesh/auth/1" NUL id NUL from NUL trace NUL op). */
export function authMac(shared: Buffer, fields: AuthFields): Buffer {
  return createHmac("sha256", shared).update([AUTH_LABEL, fields.id, fields.from, fields.trace, fields.op].join("\u0000"), "utf8").digest();
}

/**
 * The node's side: checks that a request's `auth` was made by the holder of the key it names. Shared
 * secrets are cached per client key (one X25519 per client, not per request).
 */
export class AuthVerifier {
  private readonly secrets = new Map<string, Buffer>();
  private static readonly MAX_CACHED = 4_096;

  constructor(private readonly own: CurveKeys) {}

  /**
   * The key a client's request proves, or why it is refused: every request of a client is signed and
   * checked against the keyring as it is now, so a revoked client is refused on a connection it opened before.
   */
  principalOf(request: AuthFields & { auth?: { key: string; mac: Uint8Array } | undefined }, admits: (key: string) => boolean): { principal?: string; refused?: string } {
    if (!request.auth) return { refused: "a client of a secured node signs each request with its key (auth, PROTOCOL.md §11b)" };
    if (!admits(request.auth.key)) return { refused: "the request's auth names a key this node does not admit" };
    return this.verify(request.auth, request) ? { principal: request.auth.key } : { refused: "the request's auth does not verify for the key it names" };
  }

  verify(auth: { key: string; mac: Uint8Array }, fields: AuthFields): boolean {
    let shared = this.secrets.get(auth.key);
    if (!shared) {
      try {
        shared = sharedSecret(this.own, auth.key);
      } catch {
        return false;
      }
      if (this.secrets.size >= AuthVerifier.MAX_CACHED) this.secrets.clear();
      this.secrets.set(auth.key, shared);
    }
    const expected = authMac(shared, fields);
    return auth.mac.length === AUTH_MAC_BYTES && timingSafeEqual(expected, Buffer.from(auth.mac.buffer, auth.mac.byteOffset, auth.mac.byteLength));
  }
}
