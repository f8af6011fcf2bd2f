// The registry of CLI commands; each command lives in its own module under ./commands/.
import * as askLocalCommand from "./commands/ask-local.js";
import * as demoCommand from "./commands/demo.js";
import * as nodeCommand from "./commands/node.js";
import * as peersCommand from "./commands/peers.js";
import * as pingCommand from "./commands/ping.js";
import * as scopesCommand from "./commands/scopes.js";
import * as traceCommand from "./commands/trace.js";
import * as workerCommand from "./commands/worker.js";

export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, Command> = {
  "ask-local": { summary: "answer a question from one scope's grounded index, without a mesh", run: askLocalCommand.run },
  demo: { summary: "start a small local mesh of processes and show it working", run: demoCommand.run },
  node: { summary: "run a bare mesh node (prints a ready JSON line)", run: nodeCommand.run },
  peers: { summary: "list the nodes of a mesh with state and age", run: peersCommand.run },
  ping: { summary: "time request/reply round trips to one node", run: pingCommand.run },
  scopes: { summary: "propose a split of a code base into scopes (a scopes file to edit)", run: scopesCommand.run },
  trace: { summary: "replay the audit record of a multi-hop answer", run: traceCommand.run },
  worker: { summary: "run the worker agent of one scope on the mesh", run: workerCommand.run },
};
