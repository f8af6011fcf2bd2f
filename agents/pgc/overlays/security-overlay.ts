// O2 security: one document per risky call or pattern, citing the line(s) where it happens.
import type { ParsedFile } from "../parse/parsed-file.js";
import { type DocDraft, draft } from "./doc-draft.js";
import type { SourceLines } from "./source-lines.js";

export function securityDocs(parsed: ParsedFile, source: SourceLines): DocDraft[] {
  return parsed.risks.map((risk) => {
    const enclosing = parsed.symbols.find(
      (symbol) => symbol.name === risk.caller && symbol.line_start <= risk.line_start && symbol.line_end >= risk.line_end,
    );
    const where = `file:${parsed.path}:${risk.line_start}`;
    const text = `risky_call:${risk.api} | severity:${risk.severity} | in:${risk.caller ?? "(file scope)"} | ${risk.reason} | ${where}`;
    return draft(
      "O2",
      "risky_call",
      parsed.path,
      risk,
      text,
      {
        name: risk.api,
        ...(enclosing ? { signature: enclosing.signature } : {}),
        doc: risk.reason,
        body: source.text(risk.line_start, risk.line_end),
      },
      risk.caller ?? undefined,
    );
  });
}
