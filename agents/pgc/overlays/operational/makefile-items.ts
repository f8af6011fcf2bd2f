// Makefile and Kbuild: rules (targets with their recipes) and what each kbuild variable builds.
import type { OperationalItem } from "./operational-item.js";

const ASSIGNMENT = /^\s*(?:export\s+|override\s+)?([A-Za-z0-9_.\-$(){}/]+)\s*(\+|:|\?|::|!)?=\s*(.*)$/;
const RULE = /^([^\s#=:][^=:]*?)\s*::?(?!=)\s*(.*)$/;
const DIRECTIVE = /^\s*(ifeq|ifneq|ifdef|ifndef|else|endif|include|-include|sinclude|define|endef|export|unexport|vpath)\b/;
/** Kbuild variables that list what gets built: obj-y, obj-$(CONFIG_X), lib-y, foo-objs, foo-y. */
const KBUILD_OBJECTS = /^(obj|lib|subdir)-|-(objs|y|m)$/;

/** Lines joined across trailing backslashes: [text, first line, last line] (1-based). */
function logicalLines(lines: readonly string[]): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (let index = 0; index < lines.length; index++) {
    const first = index;
    let text = lines[index] ?? "";
    while (text.endsWith("\\") && index + 1 < lines.length) text = text.slice(0, -1) + " " + (lines[++index] ?? "");
    out.push([text, first + 1, index + 1]);
  }
  return out;
}

export function makefileItems(lines: readonly string[]): OperationalItem[] {
  const items: OperationalItem[] = [];
  let rule: OperationalItem | null = null;
  for (const [text, first, last] of logicalLines(lines)) {
    if (text.startsWith("\t") && rule) {
      rule.line_end = last;
      if (!rule.summary.includes(" | runs: ")) rule.summary += ` | runs: ${text.trim()}`;
      continue;
    }
    rule = null;
    if (text.trim() === "" || text.trimStart().startsWith("#") || DIRECTIVE.test(text)) continue;
    const assignment = ASSIGNMENT.exec(text);
    if (assignment?.[1]) {
      const name = assignment[1];
      const section = KBUILD_OBJECTS.test(name) ? "build_target" : "config";
      items.push({ section, name, summary: `${name} ${assignment[2] ?? ""}= ${assignment[3]?.trim() ?? ""}`, line_start: first, line_end: last });
      continue;
    }
    const match = RULE.exec(text);
    // Special targets (.PHONY, .SUFFIXES) configure make itself; they build nothing.
    if (match?.[1] && !match[1].startsWith(".")) {
      rule = { section: "build_target", name: match[1].trim(), summary: `needs: ${match[2]?.trim() || "nothing"}`, line_start: first, line_end: last };
      items.push(rule);
    }
  }
  return items;
}
