// CURVE for the CLI and the fleet: a key pair in a file only its owner reads, a keyring directory of
// admitted public keys, and the fleet's own key pair and keyring that `mesh up` creates (PROTOCOL.md §11a).
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Keyring, newCurveKeys, type CurveKeys } from "../bus/index.js";
import type { Logger } from "pino";
import { AccessPolicy, PolicyError } from "../agents/access/policy.js";
import { CliError, EXIT } from "./cli/exit-codes.js";

export const KEYS_DIR = "keys";
export const KEYRING_DIR = "keyring";
export const FLEET_KEY = "fleet";

/** Writes a key pair: `NAME.key` (JSON, mode 0600) and `NAME.pub` (the public key) in `dir` (mode 0700). */
export function writeKeyPair(dir: string, name: string, keys: CurveKeys = newCurveKeys()): { secretFile: string; publicFile: string; keys: CurveKeys } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const secretFile = join(dir, `${name}.key`);
  const publicFile = join(dir, `${name}.pub`);
  writeFileSync(secretFile, `${JSON.stringify({ publicKey: keys.publicKey, secretKey: keys.secretKey })}\n`, { mode: 0o600 });
  chmodSync(secretFile, 0o600);
  writeFileSync(publicFile, `${keys.publicKey}\n`, { mode: 0o644 });
  return { secretFile, publicFile, keys };
}

/** Reads a key pair file; refuses one that others may read (its secret would not be one). */
export function readKeyPair(file: string): CurveKeys {
  let mode: number;
  let parsed: Partial<CurveKeys>;
  let text: string;
  try {
    mode = statSync(file).mode;
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read the CURVE key file ${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`, EXIT.dataError, "create one with `mesh keys gen NAME --dir DIR`");
  }
  try {
    parsed = JSON.parse(text) as Partial<CurveKeys>;
  } catch {
    // Not the parser's message: it quotes the text, which may be a secret.
    throw new CliError(`${file} is not a CURVE key file (JSON with publicKey and secretKey)`, EXIT.dataError, "create one with `mesh keys gen NAME --dir DIR`");
  }
  if ((mode & 0o077) !== 0) throw new CliError(`the CURVE key file ${file} may be read by others (mode ${(mode & 0o777).toString(8)})`, EXIT.dataError, `chmod 600 ${file}`);
  if (typeof parsed.publicKey !== "string" || typeof parsed.secretKey !== "string") throw new CliError(`${file} is not a CURVE key file (no publicKey and secretKey)`, EXIT.dataError);
  return { publicKey: parsed.publicKey, secretKey: parsed.secretKey };
}

/** The `curve` option of a node from `--curve-secret FILE --keyring DIR` (both or neither). */
export function nodeCurve(secretFile: string | undefined, keyringDir: string | undefined): { curve: CurveKeys & { keyring: Keyring } } | Record<string, never> {
  if (!secretFile && !keyringDir) return {};
  if (!secretFile || !keyringDir) throw new CliError("--curve-secret and --keyring go together", EXIT.usage, "a secured node needs its key pair and the keyring of admitted keys");
  if (!existsSync(keyringDir)) throw new CliError(`the keyring ${keyringDir} does not exist`, EXIT.dataError);
  return { curve: { ...readKeyPair(secretFile), keyring: Keyring.fromDir(keyringDir) } };
}

export interface FleetSecurity {
  secretFile: string;
  keyringDir: string;
  keys: CurveKeys;
}

/** The fleet's key pair and keyring (created on first use): every process of the fleet and its CLI use the key. */
export function fleetSecurity(fleetDir: string): FleetSecurity {
  const keysDir = join(fleetDir, KEYS_DIR);
  const keyringDir = join(fleetDir, KEYRING_DIR);
  const secretFile = join(keysDir, `${FLEET_KEY}.key`);
  const keys = existsSync(secretFile) ? readKeyPair(secretFile) : writeKeyPair(keysDir, FLEET_KEY).keys;
  mkdirSync(keyringDir, { recursive: true, mode: 0o700 });
  chmodSync(keyringDir, 0o700);
  const fleetPub = join(keyringDir, `${FLEET_KEY}.pub`);
  if (!existsSync(fleetPub)) writeFileSync(fleetPub, `${keys.publicKey}\n`);
  return { secretFile, keyringDir, keys };
}

/** The environment variable naming the key pair a CLI client uses instead of the fleet's own key. */
export const CLIENT_KEY_ENV = "MESH_KEY";

/**
 * A CLI client's CURVE options for a fleet's manager, when the fleet is secured: the key pair named by
 * $MESH_KEY (a narrower key the access policy grants less, e.g. for a coding agent's `mesh mcp`), else
 * the fleet's own key. The server key is the fleet's: every process of the fleet holds it.
 */
export function fleetClientCurve(fleetDir: string): { curve: CurveKeys & { serverKey: string } } | Record<string, never> {
  const secretFile = join(fleetDir, KEYS_DIR, `${FLEET_KEY}.key`);
  const publicFile = join(fleetDir, KEYS_DIR, `${FLEET_KEY}.pub`);
  if (!existsSync(secretFile) && !existsSync(publicFile)) return {};
  const own = process.env[CLIENT_KEY_ENV];
  if (!own) {
    const keys = readKeyPair(secretFile);
    return { curve: { ...keys, serverKey: keys.publicKey } };
  }
  return { curve: { ...readKeyPair(own), serverKey: readFileSync(publicFile, "utf8").trim() } };
}

/** What a CLI client of a hand-built secured mesh holds: its key pair, and the keyring of nodes it trusts. */
export interface ClientSecurity {
  keys: CurveKeys;
  keyring: Keyring;
}

/** `--curve-secret FILE --keyring DIR` on a client command (peers, ping): both or neither. */
export function clientSecurity(secretFile: string | undefined, keyringDir: string | undefined): ClientSecurity | undefined {
  const node = nodeCurve(secretFile, keyringDir);
  if (!("curve" in node)) return undefined;
  const { keyring, ...keys } = node.curve;
  return { keys, keyring };
}

/**
 * A client's CURVE options for one node: the node's public key comes from its card or its seed
 * (`ENDPOINT#KEY`), and must be in the client's keyring; null when the client cannot dial it securely.
 */
export function curveFor(security: ClientSecurity | undefined, serverKey: string | undefined): { curve: CurveKeys & { serverKey: string } } | Record<string, never> | null {
  if (!security) return {};
  if (!serverKey || !security.keyring.has(serverKey)) return null;
  return { curve: { ...security.keys, serverKey } };
}

/**
 * The access policy of a secured node from `--policy FILE` (agents/access/policy.ts). Without CURVE a node
 * cannot tell who sends a request, so a policy there is refused rather than silently not enforced.
 */
export function accessPolicy(policyFile: string | undefined, curve: ReturnType<typeof nodeCurve>, keyringDir: string | undefined, logger: Logger): AccessPolicy | undefined {
  if (!policyFile) return undefined;
  if (!("curve" in curve)) throw new CliError("--policy needs a secured node", EXIT.usage, "give --curve-secret FILE and --keyring DIR: without CURVE a node cannot tell which key sent a request");
  try {
    return new AccessPolicy({ file: policyFile, ownKey: curve.curve.publicKey, keyringDir, logger });
  } catch (error) {
    if (error instanceof PolicyError) throw new CliError(error.message, EXIT.dataError, `fix the policy file (docs/MANAGER.md, "Access policy"), or remove it to grant only the fleet's key`);
    throw error;
  }
}
