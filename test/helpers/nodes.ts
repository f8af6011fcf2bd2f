// Test helpers: start real nodes on ephemeral loopback ports and stop them all in teardown.
import { MeshNode, type NodeOptionsInput } from "../../bus/index.js";

/** Fast liveness so expiry tests finish quickly; still heartbeat < suspect < expire. */
export const FAST_LIVENESS = { heartbeatMs: 100, suspectMs: 300, expireMs: 1_000, gossipMs: 200 } as const;

export class NodeSet {
  private readonly nodes: MeshNode[] = [];

  async start(input: NodeOptionsInput): Promise<MeshNode> {
    const node = new MeshNode({ bind: "tcp://127.0.0.1:*", ...input });
    this.nodes.push(node);
    await node.start();
    return node;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.nodes.splice(0).map((node) => node.stop()));
  }
}

/** Resolve when `node` knows every id in `ids` as alive. */
export function aliveIds(node: MeshNode): string[] {
  return node
    .peers()
    .filter((p) => p.state === "alive")
    .map((p) => p.card.id)
    .sort();
}
