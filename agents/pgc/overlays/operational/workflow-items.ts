// CI workflows (GitHub, GitLab, CircleCI YAML): one item per job, with the commands it runs.
import { indentOf, lastNonBlank, type OperationalItem } from "./operational-item.js";

const JOBS = /^jobs:\s*$/;
const KEY = /^\s*([\w.-]+):\s*$/;
const RUN = /^\s*-?\s*run:\s*(.+)$/;

function workflowName(lines: readonly string[]): string {
  for (const line of lines) {
    const match = /^name:\s*["']?(.+?)["']?\s*$/.exec(line);
    if (match?.[1]) return match[1];
  }
  return "workflow";
}

export function workflowItems(lines: readonly string[]): OperationalItem[] {
  const jobsAt = lines.findIndex((line) => JOBS.test(line));
  if (jobsAt < 0) return [];
  const prefix = workflowName(lines);
  const starts: { index: number; name: string }[] = [];
  let jobIndent = -1;
  for (let index = jobsAt + 1; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    if (indentOf(line) === 0) break;
    if (jobIndent < 0) jobIndent = indentOf(line);
    const key = KEY.exec(line)?.[1];
    if (key && indentOf(line) === jobIndent) starts.push({ index, name: key });
  }
  return starts.map((start, position) => {
    const next = starts[position + 1]?.index ?? endOfJobs(lines, start.index);
    const body = lines.slice(start.index, next);
    const runs = body.map((line) => RUN.exec(line)?.[1]?.trim()).filter((run): run is string => run !== undefined);
    return {
      section: "workflow",
      name: `${prefix}/${start.name}`,
      summary: runs.length > 0 ? `runs: ${runs.join(" ; ")}` : "job",
      line_start: start.index + 1,
      line_end: lastNonBlank(lines, start.index + 1, next + 1),
    };
  });
}

/** 0-based index of the first line after the jobs block (back at column 0), or the end of the file. */
function endOfJobs(lines: readonly string[], from: number): number {
  for (let index = from + 1; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.trim() !== "" && indentOf(line) === 0) return index;
  }
  return lines.length;
}
