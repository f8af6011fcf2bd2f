// What a CURVE-secured node keeps for its security: its own ZeroMQ context (its ZAP handler serves that
// context alone), the handler, its key pair and the keyring of admitted keys; who sent a request (a
// member's card key, or a client's key proven by `auth`, PROTOCOL.md §11b); and the members dropped for a
// revoked key, whose open connections are refused while the key stays revoked.
import { Context } from "zeromq";
import type { Logger } from "pino";
import { AuthVerifier } from "./auth.js";
import { curveClientOptions, curveServerOptions, requireCurve, ZapHandler, type CurveKeys, type Keyring } from "./curve.js";
import { CLIENT_PREFIX } from "./inbound.js";
import type { Membership } from "./membership.js";
import type { EnvelopeOf, NodeCard } from "./wire/schema.js";

export class NodeSecurity {
  readonly context: Context;
  readonly zap: ZapHandler;
  readonly keys: CurveKeys;
  readonly keyring: Keyring;
  private authVerifier: AuthVerifier | undefined;
  private readonly revokedKeys = new Map<string, string>();

  constructor(
    curve: CurveKeys & { keyring: Keyring },
    private readonly logger: Logger,
    onRefused: () => void,
  ) {
    requireCurve();
    this.context = new Context();
    this.keys = { publicKey: curve.publicKey, secretKey: curve.secretKey };
    this.keyring = curve.keyring;
    this.zap = new ZapHandler(this.context, curve.keyring, logger.child({ component: "bus:zap" }), onRefused);
  }

  /** The inbox's socket options: CURVE server, checked by the ZAP handler. */
  serverSocketOptions(): { context: Context } & ReturnType<typeof curveServerOptions> {
    return { context: this.context, ...curveServerOptions(this.keys) };
  }

  /** A link's socket options towards a server holding `serverKey`. */
  clientSocketOptions(serverKey: string): { context: Context } & ReturnType<typeof curveClientOptions> {
    return { context: this.context, ...curveClientOptions(this.keys, serverKey) };
  }

  /** A member is admitted while its card's key is in the keyring. */
  admits(card: NodeCard): boolean {
    return this.keyring.has(card.curve_key);
  }

  /** The sender's key: a member's card key, or a client's key proven by `auth`. */
  identify(to: Buffer, request: EnvelopeOf<"request">, memberKey: () => string | undefined): { principal?: string | undefined; refused?: string } {
    if (!to.toString("utf8").startsWith(CLIENT_PREFIX)) return { principal: memberKey() };
    this.authVerifier ??= new AuthVerifier(this.keys);
    return this.authVerifier.principalOf({ id: request.id, from: request.from, trace: request.trace ?? "", op: request.body.op, auth: request.auth }, (key) => this.keyring.has(key));
  }

  /** A sender dropped for its key, while that key stays out of the keyring. */
  refuses(sender: string): boolean {
    const key = this.revokedKeys.get(sender);
    return key !== undefined && !this.keyring.has(key);
  }

  /** Reads the keyring again and drops the members whose key it no longer holds: cut off within one gossip period. */
  dropRevoked(membership: Membership): void {
    this.keyring.reload();
    const cards = new Map(membership.records().map((r) => [r.card.id, r.card.curve_key]));
    for (const id of membership.dropUnadmitted()) {
      this.revokedKeys.set(id, cards.get(id) ?? "");
      this.logger.warn({ peer: id }, "dropped a peer whose key was revoked");
    }
  }
}
