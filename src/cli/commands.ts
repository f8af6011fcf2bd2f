// The registry of CLI commands; each command lives in its own module under ./commands/.
import * as demoCommand from "./commands/demo.js";
import * as nodeCommand from "./commands/node.js";
import * as peersCommand from "./commands/peers.js";
import * as pingCommand from "./commands/ping.js";

export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, Command> = {
  demo: { summary: "start a small local mesh of processes and show it working", run: demoCommand.run },
  node: { summary: "run a bare mesh node (prints a ready JSON line)", run: nodeCommand.run },
  peers: { summary: "list the nodes of a mesh with state and age", run: peersCommand.run },
  ping: { summary: "time request/reply round trips to one node", run: pingCommand.run },
};
