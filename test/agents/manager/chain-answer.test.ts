// The traced path as a person reads it: each step's edge says what kind it is — a call, a call through a
// struct field, or a function defined in the step before's body — with its line quoted.
import { describe, expect, it } from "vitest";
import { stepLines } from "../../../agents/manager/answer/chain-answer.js";
import type { ChainStep } from "../../../agents/manager/search/trace-chain.js";

const step = (symbol: string, line_start: number, line_end: number, call_site: ChainStep["call_site"]): ChainStep => ({
  scope: "src",
  agent: "src-1",
  symbol,
  kind: "function",
  file_path: "src/paced.ts",
  line_start,
  line_end,
  sha256: "0".repeat(64),
  role: call_site ? "callee" : "entry",
  call_site,
  why: "",
});

describe("the steps of a traced answer", () => {
  const factory = step("createPaced", 2, 13, null);

  it("writes a call as caller (call line) → callee, the line quoted", () => {
    const apply = step("apply", 4, 7, { file_path: "src/paced.ts", line: 10, text: "    return apply(item);", sha256: "1".repeat(64) });
    expect(stepLines(apply, 1, factory, factory)).toEqual(["2. createPaced (src/paced.ts:10) → apply (src/paced.ts:4-7) [src]", "     10 | return apply(item);"]);
  });

  it("writes a function the step before defines in its body as defined there, not called, the definition line quoted", () => {
    const mutate = step("mutate", 8, 11, { file_path: "src/paced.ts", line: 8, text: "  const mutate = (item: string): number => {", sha256: "1".repeat(64), defines: true });
    expect(stepLines(mutate, 1, factory, factory)).toEqual(["2. createPaced defines mutate (src/paced.ts:8-11) [src] in its body", "     8 | const mutate = (item: string): number => {"]);
  });
});
