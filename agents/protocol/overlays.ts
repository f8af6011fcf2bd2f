// The seven PGC overlays (seed 002 §1) as data, for schemas, docs and the worker's overlay choice.
import { z } from "zod";

export const OVERLAY_IDS = Object.freeze(["O1", "O2", "O3", "O4", "O5", "O6", "O7"] as const);
export type OverlayId = (typeof OVERLAY_IDS)[number];

export const OverlayIdSchema = z.enum(OVERLAY_IDS);

/** O1 is always generated, so it is the fallback when a hinted overlay is missing (seed 002 §5.3). */
export const FALLBACK_OVERLAY: OverlayId = "O1";

export const OVERLAY_DESCRIPTIONS: Readonly<Record<OverlayId, string>> = Object.freeze({
  O1: "Structural: AST, symbols, dependencies. Always available; the fallback.",
  O2: "Security: vulnerabilities, attack surface.",
  O3: "Lineage: provenance, call chains, Git history. Used to route multi-hop questions.",
  O4: "Mission: strategic alignment, concepts, 'why' questions.",
  O5: "Operational: workflows, procedures, build and run steps.",
  O6: "Mathematical: formal properties, invariants, proofs.",
  O7: "Coherence: cross-overlay synthesis and consistency.",
});
