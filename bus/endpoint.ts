// The endpoint a node publishes: the bound one, unless an advertised one is given. A wildcard
// host cannot be dialled, so it is replaced by an address peers can reach.
import { networkInterfaces } from "node:os";
import { BusConfigError } from "./errors.js";

const WILDCARD_HOSTS = new Set(["0.0.0.0", "*", "[::]", "::"]);

function firstExternalIPv4(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === "IPv4" && !address.internal) return address.address;
  }
  return undefined;
}

/**
 * The endpoint to publish for `bound`: `advertise` when given — with `*` for its port (`tcp://hostb:*`),
 * the bound port, so processes on one host bound to ephemeral ports can share one advertised host — else
 * the bound endpoint, its wildcard host replaced by the first external IPv4 address.
 */
export function resolveAdvertisedEndpoint(bound: string, advertise: string | undefined): string {
  const match = /^tcp:\/\/(.+):(\d+)$/.exec(bound);
  if (advertise) {
    const anyPort = /^(tcp:\/\/.+):\*$/.exec(advertise);
    if (!anyPort) return advertise;
    if (!match) throw new BusConfigError(`cannot advertise ${advertise} for ${bound}: only a tcp endpoint has a port`);
    return `${anyPort[1]}:${match[2]}`;
  }
  if (!match) return bound; // ipc:// and inproc:// are used as bound
  const [, host = "", port = ""] = match;
  if (!WILDCARD_HOSTS.has(host)) return bound;
  const external = firstExternalIPv4();
  if (!external) throw new BusConfigError(`bound ${bound} on all interfaces but found no address to advertise; pass --advertise`);
  return `tcp://${external}:${port}`;
}
