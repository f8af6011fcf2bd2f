// Kconfig: one item per `config`/`menuconfig` entry, with its prompt, dependencies and help summary.
import { lastNonBlank, type OperationalItem } from "./operational-item.js";

const ENTRY = /^\s*(?:menu)?config\s+(\w+)/;
const BOUNDARY = /^\s*(menu|endmenu|choice|endchoice|if|endif|source|comment|config|menuconfig|mainmenu)\b/;
const PROMPT = /^\s*(bool|tristate|int|hex|string|prompt)\s+"([^"]*)"/;
const DEPENDS = /^\s*depends\s+on\s+(.*)$/;
const HELP = /^\s*-*help-*\s*$/;

export function kconfigItems(lines: readonly string[]): OperationalItem[] {
  const items: OperationalItem[] = [];
  for (let index = 0; index < lines.length; index++) {
    const name = ENTRY.exec(lines[index] ?? "")?.[1];
    if (!name) continue;
    let next = index + 1;
    while (next < lines.length && !BOUNDARY.test(lines[next] ?? "")) next++;
    const body = lines.slice(index + 1, next);
    items.push({
      section: "config",
      name: `CONFIG_${name}`,
      summary: entrySummary(body),
      line_start: index + 1,
      line_end: lastNonBlank(lines, index + 1, next + 1),
    });
  }
  return items;
}

function entrySummary(body: readonly string[]): string {
  const parts: string[] = [];
  let inHelp = false;
  for (const line of body) {
    if (inHelp) {
      if (line.trim() !== "") {
        parts.push(`help: ${line.trim()}`);
        break;
      }
      continue;
    }
    const prompt = PROMPT.exec(line);
    if (prompt) parts.push(`${prompt[1]} "${prompt[2]}"`);
    const depends = DEPENDS.exec(line);
    if (depends) parts.push(`depends on ${depends[1]?.trim()}`);
    inHelp = HELP.test(line);
  }
  return parts.join(" | ");
}
