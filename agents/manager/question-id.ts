// An answer's id (`q-YYYYMMDD-` and 8 hex digits): the manager draws one for each question, and a client
// may draw it itself (`mesh ask`, the MCP server), so that it can ask a successor manager again under it.
import { randomBytes } from "node:crypto";

export function newQuestionId(): string {
  return `q-${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(4).toString("hex")}`;
}
