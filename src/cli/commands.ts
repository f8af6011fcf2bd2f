// The registry of CLI commands; each command lives in its own module under ./commands/ and is loaded only
// when it runs, so a `mesh worker` process never loads the manager, the demo or the index builder's CLI.
export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

type CommandModule = { run(argv: string[]): Promise<number> };

function lazy(summary: string, load: () => Promise<CommandModule>): Command {
  return { summary, run: async (argv) => (await load()).run(argv) };
}

export const commands: Record<string, Command> = {
  up: lazy("launch (or refresh) a fleet of workers over a code base", () => import("./commands/up.js")),
  agents: lazy("list the running fleet's agents (also: status)", () => import("./commands/agents.js")),
  status: lazy("the same as agents", () => import("./commands/agents.js")),
  topology: lazy("print the fleet's scope graph (text, json, dot, mermaid)", () => import("./commands/topology.js")),
  ask: lazy("ask the fleet a multi-hop question, with checked evidence", () => import("./commands/ask.js")),
  web: lazy("serve a live web view of the fleet: its graph, agents, questions and answers", () => import("./commands/web.js")),
  mcp: lazy("serve the running fleet to MCP clients (coding agents), over stdio or HTTP", () => import("./commands/mcp.js")),
  delegate: lazy("send a DelegatedTask to a scope of the fleet (CDP workspace, manifest)", () => import("./commands/delegate.js")),
  down: lazy("stop a fleet gracefully", () => import("./commands/down.js")),
  join: lazy("run workers for some scopes of a fleet whose manager runs on another host", () => import("./commands/join.js")),
  manager: lazy("run a fleet's manager (mesh up starts one)", () => import("./commands/manager.js")),
  supervise: lazy("run a fleet's manager and restart it when it dies (mesh up starts one)", () => import("./commands/supervise.js")),
  keys: lazy("CURVE key pairs and keyrings: gen, add, list, revoke", () => import("./commands/keys.js")),
  "ask-local": lazy("answer a question from one scope's grounded index, without a mesh", () => import("./commands/ask-local.js")),
  demo: lazy("start a small local mesh of processes and show it working", () => import("./commands/demo.js")),
  node: lazy("run a bare mesh node (prints a ready JSON line)", () => import("./commands/node.js")),
  peers: lazy("list the nodes of a mesh with state and age", () => import("./commands/peers.js")),
  ping: lazy("time request/reply round trips to one node", () => import("./commands/ping.js")),
  scopes: lazy("propose a split of a code base into scopes (a scopes file to edit)", () => import("./commands/scopes.js")),
  trace: lazy("replay the audit record of a multi-hop answer", () => import("./commands/trace.js")),
  worker: lazy("run the worker agent of one scope on the mesh", () => import("./commands/worker.js")),
};
