// How the CLI sees a running mesh without joining it: ask any reachable node for its peer table.
import type { Logger } from "pino";
import { MeshClient, readRegistry, type NodeCard, type PeerView } from "../bus/index.js";
import { CliError, EXIT } from "./cli/exit-codes.js";

export const CLI_REQUEST_TIMEOUT_MS = 3_000;

export interface MeshTarget {
  seeds: string[];
  registryDir?: string | undefined;
}

export interface MeshView {
  /** The node that answered. */
  self: NodeCard;
  peers: PeerView[];
}

async function candidateEndpoints(target: MeshTarget): Promise<string[]> {
  const endpoints = [...target.seeds];
  if (target.registryDir) for (const entry of await readRegistry(target.registryDir)) endpoints.push(entry.card.endpoint);
  return [...new Set(endpoints)];
}

/** Ask the first node that answers for its view of the mesh. */
export async function fetchMeshView(target: MeshTarget, logger: Logger, timeoutMs = CLI_REQUEST_TIMEOUT_MS): Promise<MeshView> {
  const endpoints = await candidateEndpoints(target);
  if (endpoints.length === 0) {
    throw new CliError(
      target.registryDir ? `no live node is registered in ${target.registryDir}` : "no mesh to ask: give --seed ENDPOINT or --registry DIR",
      target.registryDir ? EXIT.unavailable : EXIT.usage,
      "start a node with `mesh node --id ID --registry DIR`, or pass the endpoint of a running node with --seed",
    );
  }
  for (const endpoint of endpoints) {
    const client = new MeshClient({ endpoint, timeoutMs, attempts: 2, logger });
    try {
      return (await client.request("peers", {})) as MeshView;
    } catch (error) {
      logger.debug({ err: error, endpoint }, "node did not answer");
    } finally {
      await client.close();
    }
  }
  throw new CliError(`none of ${endpoints.length} known endpoint(s) answered within ${timeoutMs} ms: ${endpoints.join(", ")}`, EXIT.unavailable, "check that the node is running and the endpoint is right (tcp://HOST:PORT)");
}
