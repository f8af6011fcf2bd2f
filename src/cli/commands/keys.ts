// `mesh keys`: CURVE key pairs and keyrings for meshes built by hand, and for the keyring of a fleet.
// A secret key is written only to its 0600 file: never printed, logged or put in JSON output.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, chmodSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { Z85_KEY } from "../../../bus/index.js";
import { findFleet } from "../../fleet/find-fleet.js";
import { FLEET_KEY, KEYRING_DIR, fleetSecurity, writeKeyPair } from "../../security.js";
import { parse, printJson } from "../args.js";
import { CliError, EXIT } from "../exit-codes.js";

export const HELP = `Usage: mesh keys gen NAME [--dir DIR]
       mesh keys add NAME KEY|FILE [--keyring DIR | --fleet ROOT]
       mesh keys list [--keyring DIR | --fleet ROOT] [--json]
       mesh keys revoke NAME [--keyring DIR | --fleet ROOT]

CURVE keys for a secured mesh (docs/PROTOCOL.md §11a). A node admits the public keys of its keyring, a
directory of NAME.pub files it reads again every gossip period: a key added is admitted, a key revoked
is cut off, without restarting anything. mesh up creates a fleet's own key and keyring; without
--keyring, add, list and revoke act on the keyring of the running fleet (the only one, or --fleet ROOT).

Commands:
  gen NAME        write a new key pair: DIR/NAME.key (mode 0600, the secret) and DIR/NAME.pub
  add NAME KEY    admit a public key (40 Z85 characters, or a .pub file) as NAME.pub in the keyring
  list            the admitted keys: name, public key, fingerprint
  revoke NAME     remove NAME.pub: its holder is cut off within one gossip period

Options:
  --dir DIR       where gen writes the key pair (default: the current directory)
  --keyring DIR   a keyring directory (mode 0700; created by add)
  --fleet ROOT    the fleet's code root, when several fleets run
  --json          print JSON (public keys only)
  -h, --help      show this help`;

const OPTIONS = { dir: { type: "string" }, keyring: { type: "string" }, fleet: { type: "string" } } as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A short, stable fingerprint of a public key, to compare keys by eye. */
function fingerprint(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

function checkName(name: string | undefined): string {
  if (!name || !NAME.test(name)) throw new CliError(`a key name is letters, digits, ".", "_" and "-" (got "${name ?? ""}")`, EXIT.usage, "for example: mesh keys gen ci-bot --dir ~/.mesh");
  return name;
}

async function keyringOf(values: { keyring?: string | undefined; fleet?: string | undefined }): Promise<{ dir: string; fleetKey?: string }> {
  if (values.keyring) return { dir: values.keyring };
  const { dir } = await findFleet(values.fleet);
  return { dir: join(dir, KEYRING_DIR), fleetKey: fleetSecurity(dir).keys.publicKey };
}

function readKeyArg(arg: string | undefined): string {
  if (!arg) throw new CliError("mesh keys add takes NAME and KEY (or a .pub file)", EXIT.usage);
  const key = Z85_KEY.test(arg) ? arg : existsSync(arg) ? readFileSync(arg, "utf8").trim() : arg;
  if (!Z85_KEY.test(key)) throw new CliError("not a CURVE public key: expected 40 Z85 characters, or a file holding one", EXIT.dataError, "a public key is printed by `mesh keys gen` and stored in NAME.pub");
  return key;
}

function entries(dir: string): { name: string; key: string; fingerprint: string }[] {
  if (!existsSync(dir)) throw new CliError(`the keyring ${dir} does not exist`, EXIT.dataError, "create it with `mesh keys add NAME KEY --keyring DIR`");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".pub"))
    .sort()
    .map((f) => ({ name: f.slice(0, -4), key: readFileSync(join(dir, f), "utf8").trim() }))
    .filter((e) => Z85_KEY.test(e.key))
    .map((e) => ({ ...e, fingerprint: fingerprint(e.key) }));
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS, true);
  const [sub, ...rest] = positionals;
  if (values.help || !sub) {
    process.stdout.write(`${HELP}\n`);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  if (sub === "gen") {
    const name = checkName(rest[0]);
    const dir = values.dir ?? ".";
    if (existsSync(join(dir, `${name}.key`))) throw new CliError(`${join(dir, `${name}.key`)} exists`, EXIT.dataError, "remove it first, or choose another name: a key pair is never overwritten");
    const { secretFile, publicFile, keys } = writeKeyPair(dir, name);
    if (values.json) printJson({ name, public_key: keys.publicKey, fingerprint: fingerprint(keys.publicKey), secret_file: secretFile, public_file: publicFile });
    else process.stdout.write(`${name}: ${keys.publicKey}\n  secret ${secretFile} (mode 0600; keep it there)\n  public ${publicFile}\nadmit it with: mesh keys add ${name} ${publicFile} --keyring DIR\n`);
    return EXIT.ok;
  }
  if (sub === "add") {
    const name = checkName(rest[0]);
    const key = readKeyArg(rest[1]);
    const { dir } = await keyringOf(values);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const held = entries(dir).find((e) => e.key === key && e.name !== name);
    if (held) throw new CliError(`that key is already admitted as "${held.name}"`, EXIT.dataError);
    writeFileSync(join(dir, `${name}.pub`), `${key}\n`, { mode: 0o644 });
    if (values.json) printJson({ keyring: dir, added: { name, key, fingerprint: fingerprint(key) } });
    else process.stdout.write(`admitted ${name} (${fingerprint(key)}) in ${dir}; nodes read it within one gossip period\n`);
    return EXIT.ok;
  }
  if (sub === "list") {
    const { dir, fleetKey } = await keyringOf(values);
    const keys = entries(dir).map((e) => ({ ...e, ...(fleetKey ? { fleet_key: e.key === fleetKey } : {}) }));
    if (values.json) printJson({ keyring: dir, keys });
    else {
      for (const k of keys) process.stdout.write(`${k.name.padEnd(20)}  ${k.key}  ${k.fingerprint}${k.fleet_key ? "  (the fleet's key)" : ""}\n`);
      process.stdout.write(`${keys.length} admitted key(s) in ${dir}\n`);
    }
    return EXIT.ok;
  }
  if (sub === "revoke") {
    const name = checkName(rest[0]);
    const { dir, fleetKey } = await keyringOf(values);
    const entry = entries(dir).find((e) => e.name === name);
    if (!entry) throw new CliError(`no key named "${name}" in ${dir}`, EXIT.dataError, "list the keys with `mesh keys list`");
    if (fleetKey && (entry.key === fleetKey || name === FLEET_KEY)) throw new CliError("that is the fleet's own key: revoking it would cut every process of the fleet off", EXIT.usage, "stop the fleet with `mesh down` instead");
    rmSync(join(dir, `${name}.pub`));
    if (values.json) printJson({ keyring: dir, revoked: { name, key: entry.key, fingerprint: entry.fingerprint } });
    else process.stdout.write(`revoked ${name} (${entry.fingerprint}); its holder is cut off within one gossip period\n`);
    return EXIT.ok;
  }
  throw new CliError(`unknown keys command "${sub}"`, EXIT.usage, "one of: gen, add, list, revoke");
}
