// OUTPUT.md (CDP, seed 000) back into an executor result. The status line decides the status; known
// sections give the result, key findings, referenced files, the reason for a block and the question.
// The normative format is docs/EXECUTORS.md.
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { TaskError, type TaskStatus } from "../../protocol/index.js";
import type { ExecutorOutput } from "../executor.js";
import { fitFindings, fitMessage, fitOptions, fitResult } from "./fit-limits.js";
import { listItems, normalizeHeading, pickSection, proseOf, readOutputDocument, type OutputDocument } from "./output-markdown.js";
import { referencedFiles } from "./referenced-files.js";
import { OUTPUT_FILE } from "./workspace.js";

/** Bytes of OUTPUT.md read; the rest is ignored (the result is cut to 64 KiB anyway). */
export const MAX_OUTPUT_BYTES = 256 * 1024;

/** Section names by role, most preferred first (compared after normalizeHeading). */
export const SECTION_NAMES = Object.freeze({
  result: ["summary", "result", "answer"],
  findings: ["key findings", "findings", "decisions made"],
  files: ["files referenced", "referenced files", "files modified", "key files", "files"],
  blocked: ["blocked because", "blockers", "blocked", "error"],
  clarification: ["needs clarification", "clarification", "question"],
  forPrimary: ["for primary"],
} as const);

/** Status words and their aliases (seed 000 says `needs-input`), matched at the start of the status value. */
const STATUS_PATTERNS: ReadonlyArray<readonly [RegExp, TaskStatus]> = [
  [/^needs (?:clarification|input)\b/, "needs_clarification"],
  [/^(?:completed?|done)\b/, "completed"],
  [/^partial\b/, "partial"],
  [/^blocked\b/, "blocked"],
  [/^(?:failed|failure)\b/, "failed"],
];

/** The status named by a status-line value, or undefined when it names none or lists alternatives. */
export function statusFromValue(value: string | undefined): TaskStatus | undefined {
  const normalized = normalizeHeading(value ?? "");
  // "completed | blocked | needs-input" is the template copied unchanged, not an answer.
  if (normalized.includes("|")) return undefined;
  return STATUS_PATTERNS.find(([pattern]) => pattern.test(normalized))?.[1];
}

function executorError(message: string) {
  return new TaskError("EXECUTOR_FAILED", message).toWire();
}

function resultOf(document: OutputDocument, text: string): string {
  const summary = pickSection(document, SECTION_NAMES.result);
  const forPrimary = pickSection(document, SECTION_NAMES.forPrimary);
  // Without a summary nothing is lost: the whole file is the result.
  if (summary === undefined) return text.trim();
  return [summary, forPrimary].filter((part) => part !== undefined && part.length > 0).join("\n\n");
}

/** The question: the prose of Needs Clarification (its list items are the options), else For Primary, else Summary. */
function clarification(document: OutputDocument): NonNullable<ExecutorOutput["clarification_request"]> {
  const section = pickSection(document, SECTION_NAMES.clarification);
  const question = proseOf(section);
  const options = question.length > 0 ? fitOptions(listItems(section)) : [];
  const asked = question || section || pickSection(document, SECTION_NAMES.forPrimary) || pickSection(document, SECTION_NAMES.result) || "";
  return { question: fitMessage(asked, "The agent needs clarification but did not say what."), ...(options.length > 0 ? { options } : {}) };
}

export interface OutputContext {
  /** Absolute scope root: absolute paths under it in "Files Referenced" become relative. */
  scopeRoot?: string;
}

/** Never throws: a file without a recognizable status line is `blocked` with EXECUTOR_FAILED. */
export function parseOutputFile(text: string, context: OutputContext = {}): ExecutorOutput {
  const document = readOutputDocument(text);
  const status = statusFromValue(document.status);
  const result = fitResult(resultOf(document, text) || "(OUTPUT.md is empty)");
  const findings = fitFindings(listItems(pickSection(document, SECTION_NAMES.findings)));
  const files = referencedFiles(listItems(pickSection(document, SECTION_NAMES.files)), context.scopeRoot);
  const base = { result, ...(findings.length > 0 ? { key_findings: findings } : {}), ...(files.length > 0 ? { referenced_files: files } : {}) };
  const blocked = pickSection(document, SECTION_NAMES.blocked);
  switch (status) {
    case undefined: {
      const seen = document.status === undefined ? "no status line" : `an unknown status ${JSON.stringify(document.status.slice(0, 60))}`;
      return { status: "blocked", ...base, error: executorError(`OUTPUT.md has ${seen}; expected "**Status:** completed | partial | blocked | failed | needs_clarification"`) };
    }
    case "needs_clarification":
      return { status, ...base, clarification_request: clarification(document) };
    case "blocked":
    case "failed":
      return { status, ...base, error: executorError(fitMessage(blocked || pickSection(document, SECTION_NAMES.forPrimary) || result, `the agent reported ${status}`)) };
    case "partial":
      return { status, ...base, ...(blocked ? { error: executorError(fitMessage(blocked, "partly blocked")) } : {}) };
    case "completed":
      return { status, ...base };
    default:
      return status satisfies never;
  }
}

/** OUTPUT.md of a workspace (at most MAX_OUTPUT_BYTES, never through a symlink); undefined when absent. */
export async function readOutputFile(dir: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(join(dir, OUTPUT_FILE), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${OUTPUT_FILE} is not a regular file`);
    const buffer = Buffer.alloc(MAX_OUTPUT_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_OUTPUT_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}
