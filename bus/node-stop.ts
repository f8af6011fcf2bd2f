// A mesh node's graceful stop, once its timers are cleared and it refuses new work (node.ts, `stop`): BYE to
// every peer and out of the registry, drain in-flight work up to a bound, abort what is left, fail the
// requests still waiting, flush, settle and close the sockets.
import type { Logger } from "pino";
import type { Bulkhead } from "./bulkhead.js";
import type { Discovery } from "./discovery.js";
import type { Inbox } from "./inbox.js";
import type { Membership } from "./membership.js";
import type { NodeOptions } from "./node-options.js";
import type { NodeSecurity } from "./node-security.js";
import type { Outbound } from "./outbound.js";
import type { Requester } from "./requester.js";
import type { Responder } from "./responder.js";

/** Pause between flushing and closing sockets at stop. */
const CLOSE_SETTLE_MS = 50;

export interface StoppingParts {
  id: string;
  options: Pick<NodeOptions, "drainTimeoutMs" | "lingerMs">;
  logger: Logger;
  discovery: Discovery;
  membership: Membership;
  outbound: Outbound;
  bulkhead: Bulkhead;
  responder: Responder;
  requester: Requester;
  inbox: Inbox;
  secured: NodeSecurity | null;
}

export async function stopParts(parts: StoppingParts): Promise<void> {
  const { id, options, logger, discovery, membership, outbound, bulkhead } = parts;
  if (discovery.started) {
    for (const record of membership.records()) outbound.onLink(record.link, "bye", { reason: "stopping" });
    await discovery.withdraw(id);
  }
  let drainTimer: NodeJS.Timeout | undefined;
  const bound = new Promise<boolean>((resolve) => (drainTimer = setTimeout(() => resolve(false), options.drainTimeoutMs)));
  const drained = await Promise.race([bulkhead.whenIdle().then(() => true), bound]);
  clearTimeout(drainTimer);
  if (!drained) logger.warn({ inFlight: bulkhead.inFlight }, "drain bound passed; aborting remaining handlers");
  for (const key of bulkhead.clearQueue()) logger.debug({ key }, "queued request dropped at stop");
  parts.responder.abortAll("node stopping");
  parts.requester.failAll(`node ${id} stopped`);
  await Promise.all([membership.flushAll(options.lingerMs), parts.inbox.queue.whenEmpty()]);
  // libzmq can drop a message handed to a socket just before zmq_close (libzmq#1264) despite the
  // linger; a short settle lets the I/O thread take the last replies and BYEs first.
  await new Promise((resolve) => setTimeout(resolve, Math.min(options.lingerMs, CLOSE_SETTLE_MS)));
  await membership.closeAll();
  await discovery.closeSeedLinks();
  await parts.inbox.close();
  await parts.secured?.zap.close();
  logger.info("node stopped");
}
