// The argv of an external ask command: the configured command, then argument templates whose
// placeholders {question}, {overlays} and {top_k} are filled in. No shell is involved.

export interface AskArgTemplates {
  /** Always appended. */
  readonly question: readonly string[];
  /** Appended when overlays are given; {overlays} is the comma-joined list, e.g. "O1,O3". */
  readonly overlays: readonly string[];
  /** Appended when a top-k is given. */
  readonly topK: readonly string[];
}

/** cognition-cli's flags: `ask "Q" --json --overlays O1,O3 --top-k 5`. */
export const DEFAULT_ASK_ARGS: AskArgTemplates = Object.freeze({
  question: Object.freeze(["{question}", "--json"]),
  overlays: Object.freeze(["--overlays", "{overlays}"]),
  topK: Object.freeze(["--top-k", "{top_k}"]),
});

const PLACEHOLDER = /\{(question|overlays|top_k)\}/g;

export interface AskArgValues {
  question: string;
  overlays?: readonly string[];
  topK?: number;
}

/** A question starting with "-" would be read as an option; a leading space keeps it a question. */
export function questionArgument(question: string): string {
  return question.startsWith("-") ? ` ${question}` : question;
}

function fill(templates: readonly string[], values: Record<string, string>): string[] {
  // One pass, so a question containing "{overlays}" is passed literally.
  return templates.map((template) => template.replace(PLACEHOLDER, (_match, name: string) => values[name] ?? ""));
}

export function askArgv(command: readonly string[], templates: AskArgTemplates, values: AskArgValues): string[] {
  const overlays = values.overlays && values.overlays.length > 0 ? values.overlays.join(",") : undefined;
  const topK = values.topK === undefined ? undefined : String(values.topK);
  const filled = { question: questionArgument(values.question), overlays: overlays ?? "", top_k: topK ?? "" };
  return [
    ...command,
    ...fill(templates.question, filled),
    ...(overlays === undefined ? [] : fill(templates.overlays, filled)),
    ...(topK === undefined ? [] : fill(templates.topK, filled)),
  ];
}
