// How the CLI sees a running mesh without joining it: ask any reachable node for its peer table.
import type { Logger } from "pino";
import { MeshClient, parseSeed, readRegistry, type NodeCard, type PeerView } from "../bus/index.js";
import { curveFor, type ClientSecurity } from "./security.js";
import { CliError, EXIT } from "./cli/exit-codes.js";

export const CLI_REQUEST_TIMEOUT_MS = 3_000;

export interface MeshTarget {
  seeds: string[];
  registryDir?: string | undefined;
  /** A secured mesh: the client's key pair and the keyring of nodes it trusts (PROTOCOL.md §11a). */
  security?: ClientSecurity | undefined;
}

export interface MeshView {
  /** The node that answered. */
  self: NodeCard;
  peers: PeerView[];
}

interface Candidate {
  endpoint: string;
  key?: string | undefined;
}

async function candidates(target: MeshTarget): Promise<Candidate[]> {
  const found: Candidate[] = target.seeds.map((seed) => parseSeed(seed));
  if (target.registryDir) for (const entry of await readRegistry(target.registryDir)) found.push({ endpoint: entry.card.endpoint, key: entry.card.curve_key });
  const byEndpoint = new Map<string, Candidate>();
  for (const c of found) if (!byEndpoint.get(c.endpoint)?.key) byEndpoint.set(c.endpoint, c);
  return [...byEndpoint.values()];
}

/** Ask the first node that answers for its view of the mesh. */
export async function fetchMeshView(target: MeshTarget, logger: Logger, timeoutMs = CLI_REQUEST_TIMEOUT_MS): Promise<MeshView> {
  const found = await candidates(target);
  if (found.length === 0) {
    throw new CliError(
      target.registryDir ? `no live node is registered in ${target.registryDir}` : "no mesh to ask: give --seed ENDPOINT or --registry DIR",
      target.registryDir ? EXIT.unavailable : EXIT.usage,
      "start a node with `mesh node --id ID --registry DIR`, or pass the endpoint of a running node with --seed",
    );
  }
  const endpoints = found.map((c) => c.endpoint);
  const dialable = found.flatMap((c) => {
    const curve = curveFor(target.security, c.key);
    return curve ? [{ endpoint: c.endpoint, curve }] : [];
  });
  if (dialable.length === 0) {
    throw new CliError(`no known node of this mesh has a public key in the keyring: ${endpoints.join(", ")}`, EXIT.unavailable, "give a seed as ENDPOINT#PUBLICKEY, or add the node's key with `mesh keys add NAME KEY --keyring DIR`");
  }
  for (const { endpoint, curve } of dialable) {
    const client = new MeshClient({ endpoint, timeoutMs, attempts: 2, logger, ...curve });
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
