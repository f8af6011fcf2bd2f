// Fault injection: a proxy that sits in front of a node's ROUTER and can corrupt, drop or delay
// frames in either direction. A node advertises the proxy's endpoint; peers connect to it unawares.
import { Dealer, Router } from "zeromq";

export type Direction = "to_node" | "from_node";
/** Return the frame to forward (possibly altered), or null to drop it. */
export type FrameFault = (direction: Direction, frame: Buffer, index: number) => Buffer | null;

export interface ProxyHandle {
  endpoint: string;
  close(): Promise<void>;
}

/** Flip one byte of the payload (not the header), so the frame still parses but fails its CRC. */
export function flipPayloadByte(frame: Buffer): Buffer {
  const copy = Buffer.from(frame);
  const at = Math.min(copy.length - 1, 12 + Math.floor((copy.length - 12) / 2));
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

export async function startCorruptingProxy(target: string, fault: FrameFault, bind = "tcp://127.0.0.1:*"): Promise<ProxyHandle> {
  const front = new Router({ linger: 0, mandatory: false });
  await front.bind(bind);
  const endpoint = front.lastEndpoint as string;
  const backs = new Map<string, Dealer>();
  const loops: Promise<void>[] = [];
  const counters: Record<Direction, number> = { to_node: 0, from_node: 0 };
  let closed = false;

  const apply = (direction: Direction, frame: Buffer): Buffer | null => fault(direction, frame, counters[direction]++);

  const backFor = (identity: Buffer): Dealer => {
    const key = identity.toString("hex");
    let back = backs.get(key);
    if (back) return back;
    back = new Dealer({ routingId: identity.toString("utf8"), linger: 0 });
    back.connect(target);
    backs.set(key, back);
    const socket = back;
    loops.push(
      (async () => {
        for await (const [frame] of socket) {
          const out = frame ? apply("from_node", frame) : null;
          if (out && !closed) await front.send([identity, out]).catch(() => undefined);
        }
      })().catch(() => undefined),
    );
    return back;
  };

  loops.push(
    (async () => {
      for await (const [identity, frame] of front) {
        if (!identity || !frame) continue;
        const out = apply("to_node", frame);
        if (out && !closed) await backFor(identity).send(out).catch(() => undefined);
      }
    })().catch(() => undefined),
  );

  return {
    endpoint,
    close: async () => {
      closed = true;
      front.close();
      for (const back of backs.values()) back.close();
      await Promise.all(loops);
    },
  };
}
