// TOML/INI-style files (`[section]` headers) and CMake targets.
import { lastNonBlank, type OperationalItem } from "./operational-item.js";

const SECTION = /^\s*\[+([^\]]+)\]+\s*$/;
const SCRIPT_SECTIONS = /^(project\.scripts|tool\.poetry\.scripts|options\.entry_points|project\.gui-scripts)$/;
const CMAKE_TARGET = /^\s*(add_executable|add_library|add_custom_target)\s*\(\s*([\w.${}-]+)/i;

export function sectionedConfigItems(lines: readonly string[]): OperationalItem[] {
  const starts: { index: number; name: string }[] = [];
  lines.forEach((line, index) => {
    const name = SECTION.exec(line)?.[1]?.trim();
    if (name) starts.push({ index, name });
  });
  return starts.map((start, position) => {
    const next = starts[position + 1]?.index ?? lines.length;
    const keys = lines
      .slice(start.index + 1, next)
      .map((line) => /^\s*([\w.-]+)\s*[=:]/.exec(line)?.[1])
      .filter((key): key is string => key !== undefined);
    return {
      section: SCRIPT_SECTIONS.test(start.name) ? "script" : "config",
      name: start.name,
      summary: keys.length > 0 ? `keys: ${keys.join(", ")}` : "section",
      line_start: start.index + 1,
      line_end: lastNonBlank(lines, start.index + 1, next + 1),
    };
  });
}

export function cmakeItems(lines: readonly string[]): OperationalItem[] {
  const items: OperationalItem[] = [];
  lines.forEach((line, index) => {
    const match = CMAKE_TARGET.exec(line);
    if (!match?.[2]) return;
    let end = index;
    while (end < lines.length - 1 && !(lines[end] ?? "").includes(")")) end++;
    items.push({ section: "build_target", name: match[2], summary: match[1] ?? "", line_start: index + 1, line_end: end + 1 });
  });
  return items;
}
