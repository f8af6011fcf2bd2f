// The structure of OUTPUT.md, read leniently but deterministically: the status line, the `## `
// sections and their list items. Lines inside fenced code blocks are never structure.

export interface OutputDocument {
  /** The raw value of the status line, if any (see statusLineValue). */
  readonly status: string | undefined;
  /** Level-2 sections by normalized heading; the first section of a name wins. Text is trimmed. */
  readonly sections: ReadonlyMap<string, string>;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
/** `Status: x`, `**Status:** x`, `**Status**: x`, `- Status: x`, `## Status: x` (case-insensitive). */
const STATUS_LINE = /^\s{0,3}(?:#{1,6}\s+)?(?:[-*+]\s+)?[*_]{0,2}status[*_]{0,2}\s*:\s*(.*)$/i;
const LEVEL_2_HEADING = /^\s{0,3}##\s+(.*?)\s*#*\s*$/;
const LEVEL_1_HEADING = /^\s{0,3}#\s/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;
/** Items that only say there is nothing; agents copy them from templates. */
const EMPTY_ITEMS = new Set(["none", "(none)", "n/a", "-", "nothing"]);

/** A heading or status value compared by meaning: lower case, no emphasis, `-`/`_`/spaces as one space. */
export function normalizeHeading(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[*`]/g, "")
    .replace(/[-_\s]+/g, " ")
    .replace(/:\s*$/, "")
    .trim();
}

/** A status value without the emphasis around it: "** completed**" is "completed". */
function statusValue(raw: string | undefined): string | undefined {
  const value = raw?.replace(/^[*_\s]+/, "").replace(/[*\s]+$/, "");
  return value || undefined;
}

/** Lines with a flag saying whether each is inside a fenced code block (fence lines count as inside). */
function classifyLines(text: string): Array<{ line: string; fenced: boolean }> {
  let fence: string | undefined;
  return text.split(/\r?\n/).map((line) => {
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined && fence === undefined) {
      fence = marker;
      return { line, fenced: true };
    }
    if (marker !== undefined && fence !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
      fence = undefined;
      return { line, fenced: true };
    }
    return { line, fenced: fence !== undefined };
  });
}

/** Splits the document into sections and finds the first status line outside code fences. */
export function readOutputDocument(text: string): OutputDocument {
  const sections = new Map<string, string>();
  let status: string | undefined;
  let current: string | undefined;
  let body: string[] = [];
  const flush = () => {
    if (current !== undefined && !sections.has(current)) sections.set(current, body.join("\n").trim());
  };
  for (const { line, fenced } of classifyLines(text)) {
    if (!fenced) status ??= statusValue(STATUS_LINE.exec(line)?.[1]);
    const heading = fenced ? undefined : LEVEL_2_HEADING.exec(line)?.[1];
    if (heading !== undefined || (!fenced && LEVEL_1_HEADING.test(line))) {
      flush();
      current = heading === undefined ? undefined : normalizeHeading(heading);
      body = [];
    } else if (current !== undefined) body.push(line);
  }
  flush();
  // A `## Status` section carries the status on its first non-empty line.
  status ??= statusValue(sections.get("status")?.split("\n")[0]);
  return { status, sections };
}

/** The first section present among `names` (in that order of preference). */
export function pickSection(document: OutputDocument, names: readonly string[]): string | undefined {
  for (const name of names) {
    const text = document.sections.get(name);
    if (text !== undefined) return text;
  }
  return undefined;
}

/**
 * The list items of a section: `-`, `*`, `+`, `1.` or `1)` items (checkboxes dropped), with indented
 * continuation lines joined by a space. A section without list markers has one item per non-empty line.
 */
export function listItems(section: string | undefined): string[] {
  const lines = (section ?? "").split("\n");
  const hasItems = lines.some((line) => LIST_ITEM.test(line));
  const items: string[] = [];
  for (const line of lines) {
    const item = LIST_ITEM.exec(line)?.[1];
    if (item !== undefined || !hasItems) items.push((item ?? line).trim());
    else if (/^\s+\S/.test(line) && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
  }
  return items.filter((item) => item.length > 0 && !EMPTY_ITEMS.has(item.toLowerCase()));
}

/** The text of a section that is not part of a list item (e.g. a question above its options). */
export function proseOf(section: string | undefined): string {
  const lines = (section ?? "").split("\n");
  const prose: string[] = [];
  let inItem = false;
  for (const line of lines) {
    if (LIST_ITEM.test(line)) inItem = true;
    else if (line.trim().length === 0) inItem = false;
    else if (!(inItem && /^\s+\S/.test(line))) {
      inItem = false;
      prose.push(line.trim());
    }
  }
  return prose.join(" ").trim();
}
