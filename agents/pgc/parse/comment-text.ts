// Turns comments and docstrings into plain text: markers and common indentation removed.

const SPDX_LINE = /^\s*SPDX-License-Identifier:/;

/** Strips `/* *\/`, `/** *\/`, `//`, `///`, `//!` and `#` markers from one comment. */
export function stripCommentMarkers(comment: string): string {
  const trimmed = comment.trim();
  if (trimmed.startsWith("/*")) return stripBlock(trimmed);
  return trimLines(trimmed.split("\n").map((line) => line.replace(/^\s*(\/\/[/!]?|#+)\s?/, "")));
}

function stripBlock(comment: string): string {
  const inner = comment.replace(/^\/\*+!?/, "").replace(/\*+\/$/, "");
  const lines = inner.split("\n").map((line) => line.replace(/^\s*\*+(?!\/)\s?/, "").replace(/\s+$/, ""));
  return trimLines(dedent(lines));
}

/** First line trimmed, the others stripped of their common indentation. */
function dedent(lines: readonly string[]): string[] {
  const rest = lines.slice(1);
  const indents = rest.filter((line) => line.trim() !== "").map((line) => line.length - line.trimStart().length);
  const indent = indents.length > 0 ? Math.min(...indents) : 0;
  return [(lines[0] ?? "").trim(), ...rest.map((line) => line.slice(indent).replace(/\s+$/, ""))];
}

/** Drops licence lines and blank lines at both ends. */
function trimLines(lines: string[]): string {
  const kept = lines.filter((line) => !SPDX_LINE.test(line));
  while (kept.length > 0 && kept[0]?.trim() === "") kept.shift();
  while (kept.length > 0 && kept[kept.length - 1]?.trim() === "") kept.pop();
  return kept.join("\n");
}

/** A Python string literal's text, as `inspect.cleandoc` would give it. */
export function cleanDocstring(literal: string): string {
  const body = literal
    .replace(/^[rRuUbBfF]{0,2}("""|'''|"|')/, "")
    .replace(/("""|'''|"|')$/, "");
  return trimLines(dedent(body.split("\n")));
}
