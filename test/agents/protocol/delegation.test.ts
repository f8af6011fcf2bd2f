import { describe, expect, it } from "vitest";
import {
  canDelegate,
  DelegationCycleError,
  DelegationDepthError,
  delegationDepthOf,
  delegationPreamble,
  MAX_DELEGATION_DEPTH,
  nextDelegation,
  parseDelegatedTask,
} from "../../../agents/protocol/index.js";
import { validTask } from "./fixtures.js";

describe("delegation depth", () => {
  it("treats an absent depth as the primary agent", () => {
    expect(delegationDepthOf({})).toBe(0);
    expect(canDelegate({})).toBe(true);
  });

  it("walks 0 -> 1 -> 2 -> 3 and stops at MAX_DELEGATION_DEPTH", () => {
    let fields = {};
    for (const agent of ["manager", "drivers", "kernel"]) {
      fields = nextDelegation(fields, agent);
      expect(() => parseDelegatedTask(validTask(fields))).not.toThrow();
    }
    expect(fields).toEqual({ delegation_depth: MAX_DELEGATION_DEPTH, delegation_chain: ["manager", "drivers", "kernel"] });
    expect(canDelegate(fields)).toBe(false);
    expect(() => nextDelegation(fields, "mm")).toThrow(DelegationDepthError);
  });

  it("refuses to delegate through an agent already in the chain", () => {
    const fields = { delegation_depth: 2, delegation_chain: ["manager", "drivers"] };
    expect(() => nextDelegation(fields, "manager")).toThrow(DelegationCycleError);
  });

  it("never mutates the received chain", () => {
    const chain = ["manager"];
    nextDelegation({ delegation_depth: 1, delegation_chain: chain }, "drivers");
    expect(chain).toEqual(["manager"]);
  });
});

describe("delegationPreamble", () => {
  it("states the chain, the depth and whether the agent may spawn (seed 004)", () => {
    expect(delegationPreamble({ delegation_depth: 2, delegation_chain: ["manager", "drivers"] })).toBe(
      [
        "[AI-TO-AI DELEGATION]",
        "From: drivers",
        "Chain: human -> manager -> drivers -> you",
        "Max-Depth: 3 | Your-Depth: 2 | Can-Spawn: YES",
      ].join("\n"),
    );
    expect(delegationPreamble({ delegation_depth: 3, delegation_chain: ["a", "b", "c"] })).toContain("Can-Spawn: NO");
    expect(delegationPreamble({})).toContain("From: human");
  });
});
