// The echo server of the bus benchmark, run in its own process so client and server do not share an
// event loop. Usage:
//   node dist/scripts/bench/bus-server.js --mode mesh|raw --bind ENDPOINT
// Prints one ready line ({"event":"ready","mode","id","endpoint","pid"}) on stdout, then serves until
// SIGTERM, SIGINT or the end of a piped stdin (the parent died), and exits 0 after closing its socket.
import { fstatSync } from "node:fs";
import { parseArgs } from "node:util";
import { Router } from "zeromq";
import { Keyring, MeshNode } from "../../bus/index.js";
import type { BenchCurve } from "./bus-run.js";
import { BENCH_CURVE_ENV } from "./bus-server-process.js";
import { ECHO_OP, type ReadyLine, type ServerMode } from "./bus-echo.js";

/** The mesh server's node id; the client learns it from the ready line rather than assuming it. */
const BENCH_SERVER_ID = "bench-server";
/** Nothing may be left to deliver when the benchmark stops the server, so closing need not wait. */
const RAW_LINGER_MS = 0;

interface RunningServer {
  id: string;
  endpoint: string;
  stop: () => Promise<void>;
}

/** Raw baseline: a ROUTER that sends every [identity, payload] straight back. */
async function startRawServer(bind: string, curve: BenchCurve | undefined): Promise<RunningServer> {
  // With CURVE: a CURVE server without a ZAP handler (libzmq then admits any client key), the cost of
  // the encryption alone.
  const secured = curve ? { curveServer: true, curveSecretKey: curve.server.secretKey, curvePublicKey: curve.server.publicKey } : {};
  const router = new Router({ linger: RAW_LINGER_MS, ...secured });
  await router.bind(bind);
  const served = (async () => {
    for await (const [identity, payload] of router) {
      if (identity !== undefined && payload !== undefined) await router.send([identity, payload]);
    }
  })().catch((error: unknown) => {
    if (!router.closed) throw error;
  });
  return {
    id: "raw-router",
    endpoint: router.lastEndpoint ?? bind,
    stop: async () => {
      router.close();
      await served;
    },
  };
}

/** Mesh case: a full MeshNode whose `echo` handler returns its args. */
async function startMeshServer(bind: string, curve: BenchCurve | undefined): Promise<RunningServer> {
  const secured = curve ? { curve: { ...curve.server, keyring: new Keyring([curve.server.publicKey, curve.client.publicKey]) } } : {};
  const node = new MeshNode({ id: BENCH_SERVER_ID, role: "bench", bind, ...secured });
  node.handle(ECHO_OP, (args) => args);
  await node.start();
  return { id: node.id, endpoint: node.endpoint, stop: () => node.stop() };
}

function parseServerArgs(): { mode: ServerMode; bind: string } {
  const { values } = parseArgs({ options: { mode: { type: "string" }, bind: { type: "string" } }, strict: true });
  if (values.mode !== "raw" && values.mode !== "mesh") throw new Error(`--mode must be raw or mesh, got ${String(values.mode)}`);
  if (!values.bind) throw new Error("--bind ENDPOINT is required");
  return { mode: values.mode, bind: values.bind };
}

/** Resolves on the first of SIGTERM, SIGINT or stdin closing. */
function shutdownRequested(): Promise<string> {
  return new Promise((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
    // A pipe from the parent ends when the parent exits, even if it was killed without cleaning up.
    // Only a pipe: run by hand with stdin at /dev/null, the server must not stop at once.
    if (fstatSync(0).isFIFO()) {
      process.stdin.once("end", () => resolve("stdin closed"));
      process.stdin.resume();
    }
  });
}

async function main(): Promise<void> {
  const { mode, bind } = parseServerArgs();
  const curveText = process.env[BENCH_CURVE_ENV];
  const curve = curveText ? (JSON.parse(curveText) as BenchCurve) : undefined;
  const server = mode === "raw" ? await startRawServer(bind, curve) : await startMeshServer(bind, curve);
  const ready: ReadyLine = { event: "ready", mode, id: server.id, endpoint: server.endpoint, pid: process.pid };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  await shutdownRequested();
  await server.stop();
  process.stdin.pause();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bus-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
