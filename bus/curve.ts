// CURVE on the bus (ZeroMQ's CurveZMQ, RFC 26): every secured node has a key pair, and admits only the
// public keys in its keyring, checked by a ZAP handler (RFC 27) in the node's own ZeroMQ context. A
// refused handshake is counted and logged once per key; it never stops the node.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { capability, curveKeyPair, Router, type Context } from "zeromq";
import { BusConfigError } from "./errors.js";

/** A CURVE key in Z85 text: 40 characters for 32 bytes. */
export const Z85_KEY = /^[0-9a-zA-Z.\-:+=^!/*?&<>()[\]{}@%$#]{40}$/;
const Z85_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
/** The address libzmq sends authentication requests to, in each context (RFC 27). */
export const ZAP_ENDPOINT = "inproc://zeromq.zap.01";
/** The ZAP domain of the mesh's secured sockets. */
export const ZAP_DOMAIN = "lattice-mesh";

export interface CurveKeys {
  publicKey: string;
  secretKey: string;
}

export function newCurveKeys(): CurveKeys {
  requireCurve();
  const { publicKey, secretKey } = curveKeyPair();
  return { publicKey, secretKey };
}

/** Refuses to go on where this zeromq build has no CURVE, with what to do about it. */
export function requireCurve(): void {
  if (!capability.curve) throw new BusConfigError("this zeromq build has no CURVE support (zmq.capability.curve is false): a secured node cannot start; install zeromq 6's prebuilt binaries");
}

/** Z85 text of 32 key bytes (ZeroMQ RFC 32). */
export function z85(bytes: Buffer): string {
  let out = "";
  for (let i = 0; i + 4 <= bytes.length; i += 4) {
    let value = bytes.readUInt32BE(i);
    let chunk = "";
    for (let j = 0; j < 5; j++) {
      chunk = (Z85_CHARS[value % 85] as string) + chunk;
      value = Math.floor(value / 85);
    }
    out += chunk;
  }
  return out;
}

/**
 * The public keys a node admits. Read from a directory of `*.pub` files (one Z85 key each, the file name
 * naming its holder) and read again on demand: a key removed from the directory is revoked.
 */
export class Keyring {
  private keys: Set<string>;

  constructor(
    keys: Iterable<string> = [],
    private readonly dir?: string,
  ) {
    this.keys = new Set([...keys].filter((k) => Z85_KEY.test(k)));
    if (dir) this.reload();
  }

  static fromDir(dir: string): Keyring {
    return new Keyring([], dir);
  }

  has(key: string | undefined): boolean {
    return key !== undefined && this.keys.has(key);
  }

  get size(): number {
    return this.keys.size;
  }

  /** Replace the admitted keys (a keyring held in memory). */
  set(keys: Iterable<string>): void {
    this.keys = new Set([...keys].filter((k) => Z85_KEY.test(k)));
  }

  /** Read the directory again; returns the keys no longer admitted. */
  reload(): string[] {
    if (!this.dir) return [];
    const next = new Set<string>();
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return []; // an unreadable keyring changes nothing: keys are revoked by removing their files
    }
    for (const name of names) {
      if (!name.endsWith(".pub")) continue;
      let key: string;
      try {
        key = readFileSync(join(this.dir, name), "utf8").trim();
      } catch {
        continue; // removed between the listing and the read
      }
      if (Z85_KEY.test(key)) next.add(key);
    }
    const revoked = [...this.keys].filter((k) => !next.has(k));
    this.keys = next;
    return revoked;
  }

}

/** A refused handshake re-reads the keyring at most this often (a refused client retries every 100 ms–2 s). */
export const RELOAD_ON_MISS_MS = 250;

/** The ZAP handler of one context: admits a CURVE client whose public key is in the keyring. */
export class ZapHandler {
  private readonly router: Router;
  private readonly refusedOnce = new Set<string>();
  private lastReload = 0;
  private readonly done: Promise<void>;
  private readonly bound: Promise<void>;
  /** Resolves once the handler serves requests: a secured node binds its inbox only after it. */
  readonly ready: Promise<void>;

  constructor(
    context: Context,
    private readonly keyring: Keyring,
    private readonly logger: Logger,
    private readonly onRefused: (key: string) => void,
  ) {
    this.router = new Router({ context, linger: 0 });
    this.bound = this.router.bind(ZAP_ENDPOINT);
    this.ready = this.bound;
    this.done = this.serve();
  }

  private async serve(): Promise<void> {
    try {
      // Bound before the socket is read (a read during the bind fails); an inproc bind is immediate.
      await this.bound;
      for await (const frames of this.router) {
        // [routing id, "", version, request id, domain, address, identity, mechanism, credentials…]
        const [routing, empty, , requestId, , address, , mechanism, credential] = frames;
        const key = mechanism?.toString() === "CURVE" && credential?.length === 32 ? z85(credential) : "";
        const admitted = this.keyring.has(key) || this.reloadedHas(key);
        if (!admitted) {
          this.onRefused(key);
          if (!this.refusedOnce.has(key)) {
            this.refusedOnce.add(key);
            this.logger.warn({ key: key || "(none)", address: address?.toString() }, "refused a CURVE handshake: the key is not in the keyring");
          }
        }
        await this.router.send([routing as Buffer, empty as Buffer, "1.0", requestId as Buffer, admitted ? "200" : "400", admitted ? "OK" : "key not admitted", admitted ? key : "", ""]);
      }
    } catch (error) {
      if (!this.router.closed) this.logger.error({ err: error }, "ZAP handler stopped");
    }
  }

  /** A key not (yet) admitted: read the keyring again, at most every RELOAD_ON_MISS_MS, so a key just added is admitted at once. */
  private reloadedHas(key: string): boolean {
    const now = Date.now();
    if (now - this.lastReload < RELOAD_ON_MISS_MS) return false;
    this.lastReload = now;
    this.keyring.reload();
    return this.keyring.has(key);
  }

  async close(): Promise<void> {
    this.router.close();
    await this.done;
  }
}

/** Socket options of a secured ROUTER inbox. */
export function curveServerOptions(keys: CurveKeys): { curveServer: true; curveSecretKey: string; curvePublicKey: string; zapDomain: string; zapEnforceDomain: true } {
  return { curveServer: true, curveSecretKey: keys.secretKey, curvePublicKey: keys.publicKey, zapDomain: ZAP_DOMAIN, zapEnforceDomain: true };
}

/** Socket options of a secured DEALER to a peer whose public key is `serverKey`. */
export function curveClientOptions(keys: CurveKeys, serverKey: string): { curveServerKey: string; curvePublicKey: string; curveSecretKey: string } {
  return { curveServerKey: serverKey, curvePublicKey: keys.publicKey, curveSecretKey: keys.secretKey };
}

/** "tcp://host:port#KEY": a seed and its public key; a seed without a key cannot be dialled securely. */
export function parseSeed(seed: string): { endpoint: string; key?: string } {
  const at = seed.indexOf("#"); // an endpoint has no "#"; a Z85 key may
  if (at < 0) return { endpoint: seed };
  return { endpoint: seed.slice(0, at), key: seed.slice(at + 1) };
}
