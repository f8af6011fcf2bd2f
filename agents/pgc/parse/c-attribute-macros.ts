// C: the kernel's format attributes, written as macros before a definition (`static __printf(3, 0) int
// kobject_add_varg(…)`, `__printf(2, 3) int sysfs_emit(…)`), are no C the grammar knows: the definition after
// one was lost in an ERROR node, and every call of it taken for a call out of the scope. They are parsed as
// spaces of the same length, so lines and offsets stay where they are; names, signatures and citations are
// still read from the file's own text (parse-file.ts).
const FORMAT_ATTRIBUTE = /(?<!#\s*define\s+)\b__(?:printf|scanf)\s*\([^()\n]*\)/g;

/** The text the C grammar parses: `content` with its format-attribute macros blanked. */
export function withoutAttributeMacros(content: string): string {
  return content.includes("__printf") || content.includes("__scanf") ? content.replace(FORMAT_ATTRIBUTE, (macro) => " ".repeat(macro.length)) : content;
}
