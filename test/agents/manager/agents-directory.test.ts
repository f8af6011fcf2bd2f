// The manager's directory of workers: derived from the node's peers, rebuilt only when the membership
// changes, with each worker's load read live.
import { describe, expect, it } from "vitest";
import { AgentsDirectory, type PeerSource } from "../../../agents/manager/agents-directory.js";
import type { PeerView } from "../../../bus/index.js";

function worker(id: string, scope: string, extra: Partial<PeerView> = {}): PeerView {
  return {
    card: { id, incarnation: 1, role: "worker", endpoint: `tcp://127.0.0.1:1${id.length}`, protocols: [1], meta: { scope, scope_paths: [`${scope}/`], protocol_versions: ["2.0"], index_revision: "r1" } },
    state: "alive",
    last_seen_ms_ago: 0,
    known_for_ms: 1_000,
    ...extra,
  };
}

/** A node stand-in whose peers and version the test sets, counting how often the directory reads the peers. */
class Peers implements PeerSource {
  views: PeerView[] = [];
  peersVersion = 0;
  reads = 0;
  peers(): PeerView[] {
    this.reads++;
    return this.views;
  }
  set(views: PeerView[]): void {
    this.views = views;
    this.peersVersion++;
  }
}

describe("AgentsDirectory", () => {
  it("reads the peers once per membership version, however often a question consults it", () => {
    const peers = new Peers();
    peers.set([worker("mm-1", "mm"), worker("net-1", "net"), worker("mgr", "x", { card: { ...worker("mgr", "x").card, role: "manager" } })]);
    const directory = new AgentsDirectory(peers);
    expect(directory.scopes()).toEqual(["mm", "net"]);
    expect(directory.replicas("net").map((a) => a.id)).toEqual(["net-1"]);
    expect(directory.list().map((a) => a.id)).toEqual(["mm-1", "net-1"]);
    expect(peers.reads).toBe(1);

    peers.set([worker("mm-1", "mm"), worker("mm-2", "mm"), worker("net-1", "net", { state: "leaving" })]);
    expect(directory.scopes()).toEqual(["mm"]);
    expect(directory.replicas("mm").map((a) => a.id)).toEqual(["mm-1", "mm-2"]);
    expect(peers.reads).toBe(2);
  });

  it("orders replicas by the load this manager has on them now, not as of the last membership change", async () => {
    const peers = new Peers();
    peers.set([worker("mm-1", "mm"), worker("mm-2", "mm"), worker("mm-3", "mm", { state: "connecting" })]);
    const directory = new AgentsDirectory(peers);
    let release!: () => void;
    const busy = directory.track("mm-1", () => new Promise<void>((resolve) => (release = resolve)));
    expect(directory.replicas("mm").map((a) => [a.id, a.load])).toEqual([
      ["mm-2", 0],
      ["mm-1", 1],
    ]);
    expect(directory.replicas("mm", new Set(["mm-2"])).map((a) => a.id)).toEqual(["mm-1"]);
    release();
    await busy;
    expect(directory.replicas("mm").map((a) => a.load)).toEqual([0, 0]);
    expect(peers.reads).toBe(1);
  });

  it("sees a worker's new index revision when its card changes", () => {
    const peers = new Peers();
    peers.set([worker("mm-1", "mm")]);
    const directory = new AgentsDirectory(peers);
    expect(directory.list()[0]?.index_revision).toBe("r1");
    const updated = worker("mm-1", "mm");
    updated.card.meta["index_revision"] = "r2";
    peers.set([updated]);
    expect(directory.list()[0]?.index_revision).toBe("r2");
  });
});
