import { describe, expect, it } from "vitest";
import {
  formatManifestLine,
  manifestStatusFor,
  parseManifestEntry,
  parseManifestLine,
  ProtocolSchemaError,
  TASK_STATUSES,
} from "../../../agents/protocol/index.js";
import { issuePaths } from "./fixtures.js";

const FULL = {
  id: "T2398-protocol-analysis",
  file: "research/T2398-protocol-analysis.md",
  title: "Protocol analysis",
  date: "2026-01-26",
  status: "complete" as const,
  agent_type: "research",
  topics: ["protocol"],
  key_findings: ["OAuth2 recommended", "JWT for sessions", "30-day token expiry"],
  actionable: false,
  needs_followup: [],
  linked_tasks: ["T2392"],
};

describe("ManifestEntry", () => {
  it("parses a full seed 001 entry", () => {
    expect(parseManifestEntry(FULL)).toEqual(FULL);
  });

  it("fills the seed's defaults for omitted optional fields", () => {
    const { topics: _t, key_findings: _k, actionable: _a, needs_followup: _n, linked_tasks: _l, ...required } = FULL;
    expect(parseManifestEntry(required)).toEqual({
      ...required,
      topics: [],
      key_findings: [],
      actionable: true,
      needs_followup: [],
      linked_tasks: [],
    });
  });

  it("requires needs_followup for a partial entry (seed 001 §6.2)", () => {
    expect(issuePaths(() => parseManifestEntry({ ...FULL, status: "partial" }))).toEqual(["needs_followup"]);
    expect(() => parseManifestEntry({ ...FULL, status: "partial", needs_followup: ["error-recovery-patterns"] })).not.toThrow();
  });

  it("rejects bad dates, statuses, paths and missing required fields", () => {
    expect(issuePaths(() => parseManifestEntry({ ...FULL, date: "2026-02-30" }))).toEqual(["date"]);
    expect(issuePaths(() => parseManifestEntry({ ...FULL, date: "26/01/2026" }))).toEqual(["date"]);
    expect(issuePaths(() => parseManifestEntry({ ...FULL, status: "completed" }))).toEqual(["status"]);
    expect(issuePaths(() => parseManifestEntry({ ...FULL, file: "/abs/path.md" }))).toEqual(["file"]);
    const { agent_type: _agentType, ...missing } = FULL;
    expect(issuePaths(() => parseManifestEntry(missing))).toEqual(["agent_type"]);
  });

  it("strips unknown keys written by other tools", () => {
    expect(parseManifestEntry({ ...FULL, tokens_used: 1234 })).not.toHaveProperty("tokens_used");
  });
});

describe("MANIFEST.jsonl lines", () => {
  it("formats exactly one line that parses back", () => {
    const line = formatManifestLine({ ...FULL, title: "Multi\nline title" });
    expect(line).not.toContain("\n");
    expect(parseManifestLine(line).title).toBe("Multi\nline title");
  });

  it("reports bad JSON as a ProtocolSchemaError", () => {
    expect(() => parseManifestLine("{not json")).toThrow(ProtocolSchemaError);
    expect(issuePaths(() => parseManifestLine("{not json"))).toEqual(["(root)"]);
  });

  it("refuses to format an invalid entry", () => {
    expect(() => formatManifestLine({ ...FULL, status: "partial" as const })).toThrow(ProtocolSchemaError);
  });
});

describe("manifestStatusFor", () => {
  it("maps every TaskResponse status", () => {
    expect(TASK_STATUSES.map(manifestStatusFor)).toEqual(["complete", "blocked", "blocked", "partial", "blocked"]);
  });
});
