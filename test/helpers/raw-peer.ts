// A raw DEALER that speaks the wire format by hand, to send exactly the bytes a test wants.
import { Dealer } from "zeromq";
import { Packr } from "msgpackr";
import { decodeEnvelope, encodeFrame, type Envelope } from "../../bus/index.js";

export const packr = new Packr({ useRecords: false, moreTypes: false, int64AsType: "number" });

export class RawPeer {
  readonly socket: Dealer;
  constructor(
    readonly routingId: string,
    endpoint: string,
  ) {
    this.socket = new Dealer({ routingId, linger: 0, receiveTimeout: 5_000 });
    this.socket.connect(endpoint);
  }

  async sendBytes(frame: Buffer): Promise<void> {
    await this.socket.send(frame);
  }

  async sendEnvelope(envelope: Record<string, unknown>): Promise<void> {
    await this.socket.send(encodeFrame(packr.pack(envelope)));
  }

  /** Receive the next message of one of the given kinds (others, like HELLO answers, are skipped). */
  async receive(kinds: string[] = ["nack", "reply"]): Promise<Envelope> {
    for (;;) {
      const [frame] = await this.socket.receive();
      const envelope = decodeEnvelope(frame as Buffer, 16 * 1024 * 1024);
      if (kinds.includes(envelope.kind)) return envelope;
    }
  }

  close(): void {
    this.socket.close();
  }
}

let counter = 0;
export function requestEnvelope(from: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    kind: "request",
    id: `raw-${++counter}`,
    from,
    inc: 1,
    deadline: Date.now() + 5_000,
    hops: 1,
    max_hops: 6,
    path: [from],
    trace: "0".repeat(32),
    body: { op: "ping", args: {} },
    ...overrides,
  };
}
