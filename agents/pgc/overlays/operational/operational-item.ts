// One build target, config entry, script or workflow job found in a build or config file.

export interface OperationalItem {
  section: "build_target" | "config" | "script" | "workflow";
  name: string;
  summary: string;
  line_start: number;
  line_end: number;
}

/** Indentation width of a line (tabs count as one). */
export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The last line (1-based) of a block starting at `from` and running up to before `next`, blank lines trimmed. */
export function lastNonBlank(lines: readonly string[], from: number, next: number): number {
  let last = next - 1;
  while (last > from && (lines[last - 1] ?? "").trim() === "") last--;
  return last;
}
