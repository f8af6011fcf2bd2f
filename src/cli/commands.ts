// The registry of CLI commands; each command lives in its own module under ./commands/.
import * as agentsCommand from "./commands/agents.js";
import * as askCommand from "./commands/ask.js";
import * as askLocalCommand from "./commands/ask-local.js";
import * as delegateCommand from "./commands/delegate.js";
import * as demoCommand from "./commands/demo.js";
import * as downCommand from "./commands/down.js";
import * as managerCommand from "./commands/manager.js";
import * as nodeCommand from "./commands/node.js";
import * as peersCommand from "./commands/peers.js";
import * as pingCommand from "./commands/ping.js";
import * as scopesCommand from "./commands/scopes.js";
import * as topologyCommand from "./commands/topology.js";
import * as traceCommand from "./commands/trace.js";
import * as upCommand from "./commands/up.js";
import * as workerCommand from "./commands/worker.js";

export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, Command> = {
  up: { summary: "launch (or refresh) a fleet of workers over a code base", run: upCommand.run },
  agents: { summary: "list the running fleet's agents (also: status)", run: agentsCommand.run },
  status: { summary: "the same as agents", run: agentsCommand.run },
  topology: { summary: "print the fleet's scope graph (text, json, dot, mermaid)", run: topologyCommand.run },
  ask: { summary: "ask the fleet a multi-hop question, with checked evidence", run: askCommand.run },
  delegate: { summary: "send a DelegatedTask to a scope of the fleet (CDP workspace, manifest)", run: delegateCommand.run },
  down: { summary: "stop a fleet gracefully", run: downCommand.run },
  manager: { summary: "run a fleet's manager (mesh up starts one)", run: managerCommand.run },
  "ask-local": { summary: "answer a question from one scope's grounded index, without a mesh", run: askLocalCommand.run },
  demo: { summary: "start a small local mesh of processes and show it working", run: demoCommand.run },
  node: { summary: "run a bare mesh node (prints a ready JSON line)", run: nodeCommand.run },
  peers: { summary: "list the nodes of a mesh with state and age", run: peersCommand.run },
  ping: { summary: "time request/reply round trips to one node", run: pingCommand.run },
  scopes: { summary: "propose a split of a code base into scopes (a scopes file to edit)", run: scopesCommand.run },
  trace: { summary: "replay the audit record of a multi-hop answer", run: traceCommand.run },
  worker: { summary: "run the worker agent of one scope on the mesh", run: workerCommand.run },
};
