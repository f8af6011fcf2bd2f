// The grounding benchmark's case files: one code base each (where to fetch it) and its questions, each
// with the gold chain traced by hand before the mesh ever answered it. Format: docs/BENCHMARKS.md.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

export const CASES_DIR = fileURLToPath(new URL("../../../../scripts/bench/grounding/cases/", import.meta.url));

const relativePath = z.string().min(1).refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "a path inside the corpus");

const npmSource = z.strictObject({ kind: z.literal("npm"), package: z.string().min(1), version: z.string().min(1), strip: z.string(), paths: z.array(relativePath).min(1) });
const debianSource = z.strictObject({
  kind: z.literal("debian"),
  packages: z.array(z.string().min(1)).min(1),
  /** A tarball inside the packages' files to take the paths from (Debian's linux-source ships one). */
  archive: relativePath.optional(),
  strip: z.string(),
  paths: z.array(relativePath).min(1),
});
/** A directory of this repository (the bundled fixtures, for --quick). */
const repoSource = z.strictObject({ kind: z.literal("repo"), path: relativePath });
export const sourceSchema = z.discriminatedUnion("kind", [npmSource, debianSource, repoSource]);
export type CorpusSource = z.infer<typeof sourceSchema>;

const goldStep = z.strictObject({ file: relativePath, symbol: z.string().min(1), line: z.number().int().positive(), scope: z.string().min(1) });
export type GoldStep = z.infer<typeof goldStep>;

const questionSchema = z
  .strictObject({
    id: z.string().min(1),
    question: z.string().min(1),
    kind: z.enum(["how", "callers", "offtopic"]),
    gold: z.array(goldStep),
    call_sites: z.array(z.strictObject({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative(), line: z.number().int().positive() })),
    /** True when the gold chain was changed after an answer was seen; the notes say why. */
    revised: z.boolean(),
    notes: z.string(),
  })
  .superRefine((q, ctx) => {
    if (q.kind === "offtopic" ? q.gold.length > 0 : q.gold.length < 2) ctx.addIssue({ code: "custom", message: q.kind === "offtopic" ? "an off-topic question has no gold chain" : "a gold chain has at least two steps" });
    for (const site of q.call_sites) if (site.from >= q.gold.length || site.to >= q.gold.length) ctx.addIssue({ code: "custom", message: `call site ${site.from}→${site.to} names a step the gold chain does not have` });
  });
export type GroundingQuestion = z.infer<typeof questionSchema>;

export const caseFileSchema = z.strictObject({
  corpus: z.string().regex(/^[a-z0-9-]+$/),
  language: z.enum(["c", "python", "typescript"]),
  description: z.string(),
  source: sourceSchema,
  questions: z.array(questionSchema).min(1),
});
export type CaseFile = z.infer<typeof caseFileSchema>;

export function loadCaseFile(path: string): CaseFile {
  const parsed = caseFileSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new Error(`${path}: ${z.prettifyError(parsed.error)}`);
  const ids = new Set<string>();
  for (const q of parsed.data.questions) {
    if (ids.has(q.id)) throw new Error(`${path}: question id ${q.id} appears twice`);
    ids.add(q.id);
  }
  return parsed.data;
}

/** Every case file of the benchmark, by corpus name; fixtures.json is the bundled --quick set. */
export function loadAllCases(dir = CASES_DIR): CaseFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => loadCaseFile(join(dir, f)));
}
