// Seeded mutations of a valid message, for checking a hand-written message check against its zod schema:
// what the check passes, zod must accept and return unchanged (as the parse judges it, keys holding
// `undefined` left out first, since they cannot come off the wire).
import { expect } from "vitest";
import type { z } from "zod";
import { randomInt } from "../../agents/pgc/retrieval/prng.js";
import { withoutUndefined } from "../../agents/protocol/parse.js";

/** Values a mutation puts in place of any part of a message: some fit where they land, most do not. */
const REPLACEMENTS: unknown[] = [null, undefined, -1, 0, 1, 1.5, 1_001, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, "", "x", "how", "name", "O2", "low", "high", "exact", "none", "a".repeat(70), "a".repeat(301), "a".repeat(1_100), "../up", "/abs", "a//b", "with space", "A".repeat(64), "f".repeat(64), true, false, [], {}, [1], new Date(0)];

/** One random change somewhere in the message: a key removed or added, a list grown, or a value replaced. */
export function mutate(message: unknown, random: () => number): unknown {
  const copy = structuredClone(message) as Record<string, unknown>;
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      containers.push(v);
      v.forEach(walk);
    } else if (typeof v === "object" && v !== null) {
      containers.push(v as Record<string, unknown>);
      Object.values(v).forEach(walk);
    }
  };
  walk(copy);
  const target = containers[randomInt(random, containers.length)] as Record<string, unknown> | unknown[];
  const keys = Array.isArray(target) ? target.map((_, i) => i) : Object.keys(target);
  const op = randomInt(random, 4);
  if (op === 0 && !Array.isArray(target)) target[`extra${randomInt(random, 3)}`] = 1;
  else if (op === 1 && keys.length > 0 && !Array.isArray(target)) delete target[keys[randomInt(random, keys.length)] as string];
  else if (op === 2 && Array.isArray(target) && target.length > 0) target.push(...target.slice(0, 1 + randomInt(random, 80)));
  else if (keys.length > 0) (target as Record<string | number, unknown>)[keys[randomInt(random, keys.length)] as string] = REPLACEMENTS[randomInt(random, REPLACEMENTS.length)];
  return copy;
}

/** Whether the check and zod pass the message; fails the test when the check passes what zod would not return unchanged. */
export function agrees(schema: z.ZodType, check: (v: unknown) => boolean, message: unknown): { fast: boolean; zod: boolean } {
  const zod = schema.safeParse(withoutUndefined(message));
  const fast = check(message);
  if (fast) {
    expect(zod.success).toBe(true);
    expect(zod.data).toEqual(message);
  }
  return { fast, zod: zod.success };
}

/** Mutates the message `rounds` times (a third of them twice) and checks each; returns how many zod refused and the check passed. */
export function fuzz(schema: z.ZodType, check: (v: unknown) => boolean, parse: (v: unknown) => unknown, valid: unknown, random: () => number, rounds: number, refusal: new (...args: never[]) => Error): { refused: number; passed: number } {
  let refused = 0;
  let passed = 0;
  for (let i = 0; i < rounds; i++) {
    let message = mutate(valid, random);
    if (random() < 0.3) message = mutate(message, random);
    const { fast, zod } = agrees(schema, check, message);
    if (!zod) refused++;
    if (fast) passed++;
    // A message zod refuses is refused by the parse, with zod's own account of it.
    if (!zod) expect(() => parse(message)).toThrow(refusal);
  }
  return { refused, passed };
}
