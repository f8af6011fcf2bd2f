// The manager's records: one JSONL line per multi-hop answer (replayable with `mesh trace ID`), the
// full output of every hop in its own file (hops pass on only key findings and this reference), and
// MANIFEST.jsonl with one line per completed delegation (seed 001 §5.1).
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { formatManifestLine, type ManifestEntryInput } from "../protocol/index.js";

export const AUDIT_FILE = "audit.jsonl";
export const MANIFEST_FILE = "MANIFEST.jsonl";
export const HOPS_DIR = "hops";

export class AuditLog {
  private ready: Promise<void> | undefined;

  constructor(readonly dir: string) {}

  private ensure(): Promise<void> {
    this.ready ??= mkdir(join(this.dir, HOPS_DIR), { recursive: true }).then(() => undefined);
    return this.ready;
  }

  /** The reference (relative to the audit dir) of a hop's stored output. */
  hopRef(traceId: string, hop: number): string {
    return `${HOPS_DIR}/${traceId}-hop${hop}.json`;
  }

  /** Store a hop's full output; returns the reference handed to the next hop. */
  async writeHopOutput(traceId: string, hop: number, output: unknown): Promise<string> {
    await this.ensure();
    const ref = this.hopRef(traceId, hop);
    await writeFile(join(this.dir, ref), JSON.stringify(output));
    return ref;
  }

  async append(record: { id: string } & Record<string, unknown>): Promise<void> {
    await this.ensure();
    await appendFile(join(this.dir, AUDIT_FILE), `${JSON.stringify({ ...record, recorded_at: new Date().toISOString() })}\n`);
  }

  /** The audit record with this id (a trace id or its unique prefix), or null. */
  async find(id: string): Promise<Record<string, unknown> | null> {
    let text: string;
    try {
      text = await readFile(join(this.dir, AUDIT_FILE), "utf8");
    } catch {
      return null;
    }
    const matches = text
      .split("\n")
      .filter((line) => line.includes(id))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return null; // a torn last line from a crash is skipped, not fatal
        }
      })
      .filter((r): r is Record<string, unknown> => r !== null && typeof r["id"] === "string" && (r["id"] as string).startsWith(id));
    return matches.at(-1) ?? null;
  }

  async appendManifest(entry: ManifestEntryInput): Promise<void> {
    await this.ensure();
    await appendFile(join(this.dir, MANIFEST_FILE), `${formatManifestLine(entry)}\n`);
  }
}
