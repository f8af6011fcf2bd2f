// The shapes the web server sends and the browser app reads: one definition for both sides (this file
// imports nothing, so the DOM-typed client build can use it too).

export interface AuditEntry {
  kind: "answer" | "task";
  id: string;
  /** When it was recorded: an ISO time for answers, a day (YYYY-MM-DD) for manifest entries. */
  at: string;
  scopes: string[];
  /** answers: accepted when every hop's evidence was, rejected when any was not; tasks: the manifest status. */
  verdict: string;
  title: string;
  detail: string;
}

export interface CitedLines {
  file_path: string;
  line_start: number;
  line_end: number;
  /** match: the lines still hash to the cited sha256; changed: they do not (or the file is shorter); missing: no such file in the root. */
  outcome: "match" | "changed" | "missing";
  detail: string;
  lines: { n: number; text: string }[];
}
