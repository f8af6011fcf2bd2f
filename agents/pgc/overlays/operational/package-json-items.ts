// package.json: one item per npm script, and one for the dependency list.
import type { OperationalItem } from "./operational-item.js";

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** 0-based index of the first line at or after `from` that holds the JSON key `key`. */
function keyLine(lines: readonly string[], key: string, from: number): number {
  const pattern = new RegExp(`^\\s*"${escapeRegExp(key)}"\\s*:`);
  for (let index = from; index < lines.length; index++) if (pattern.test(lines[index] ?? "")) return index;
  return -1;
}

/** 0-based index of the line closing the object opened on line `open` (first line back at its indentation). */
function closingLine(lines: readonly string[], open: number): number {
  const indent = (lines[open] ?? "").search(/\S/);
  for (let index = open + 1; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.trim().startsWith("}") && line.search(/\S/) <= indent) return index;
  }
  return open;
}

function parseObject(content: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(content);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function stringEntries(value: unknown): [string, string][] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string");
}

export function packageJsonItems(content: string, lines: readonly string[]): OperationalItem[] {
  const manifest = parseObject(content);
  if (!manifest) return [];
  const items: OperationalItem[] = [];
  const scriptsAt = keyLine(lines, "scripts", 0);
  for (const [name, command] of scriptsAt < 0 ? [] : stringEntries(manifest["scripts"])) {
    const at = keyLine(lines, name, scriptsAt + 1);
    if (at >= 0) items.push({ section: "script", name: `npm run ${name}`, summary: command, line_start: at + 1, line_end: at + 1 });
  }
  for (const block of ["dependencies", "devDependencies"]) {
    const at = keyLine(lines, block, 0);
    const names = stringEntries(manifest[block]).map(([name]) => name);
    if (at < 0 || names.length === 0) continue;
    items.push({ section: "config", name: block, summary: names.join(", "), line_start: at + 1, line_end: closingLine(lines, at) + 1 });
  }
  return items;
}
