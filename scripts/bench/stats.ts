// Shared helpers of the benchmarks: order statistics, the printed table, the JSON result file and
// the facts about the machine that every result should carry.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { arch, cpus, platform } from "node:os";
import { dirname } from "node:path";

/** Ascending copy of the samples; a Float64Array sorts numerically, not as strings. */
export function sortedAscending(values: Iterable<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** Nearest-rank percentile of ascending samples, `p` in [0, 1]: always one of the samples, never interpolated. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new RangeError("percentile of no samples");
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Median of any samples (the mean of the middle two when the count is even). */
export function median(values: Iterable<number>): number {
  const sorted = sortedAscending(values);
  if (sorted.length === 0) throw new RangeError("median of no samples");
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** numerator / denominator rounded for reports; NaN (not Infinity) when the denominator is 0. */
export function ratio(numerator: number, denominator: number, digits = 3): number {
  return denominator === 0 ? Number.NaN : roundTo(numerator / denominator, digits);
}

/** A number with thousands separators and a fixed count of decimals, for tables. */
export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const NUMERIC_CELL = /^[-+]?[\d,.]+[×x%]?$/;

/** A plain-text table: numeric cells right-aligned, text left-aligned, columns two spaces apart. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (NUMERIC_CELL.test(cell) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [line(headers), rule, ...rows.map(line)].join("\n");
}

/** Write pretty JSON, creating the folder first (results live in a git-ignored folder that may not exist). */
export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

export interface BenchEnvironment {
  node_version: string;
  cpus: number;
  cpu_model: string;
  platform: string;
  arch: string;
  date: string;
}

/** What a reader needs to compare two result files: the runtime, the machine and when. */
export function benchEnvironment(): BenchEnvironment {
  const cores = cpus();
  return {
    node_version: process.version,
    cpus: cores.length,
    cpu_model: cores[0]?.model.trim() ?? "unknown",
    platform: platform(),
    arch: arch(),
    date: new Date().toISOString(),
  };
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux Node supports). */
const USER_HZ = 100;

/**
 * CPU time (user + system, every thread) another process has used so far, in µs, or null where there is
 * no /proc (not Linux) or the process is gone. Resolution is one clock tick (10 ms): measure spans of
 * seconds and divide by the requests in them.
 */
export function processCpuMicros(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1_000_000) / USER_HZ : null;
}
