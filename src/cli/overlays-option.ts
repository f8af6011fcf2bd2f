// Parsing of `--overlays O1,O3`.
import { OVERLAY_IDS, type OverlayId } from "../../agents/protocol/index.js";
import { CliError, EXIT } from "./exit-codes.js";

export function overlaysOption(value: string | undefined): OverlayId[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(",").map((s) => s.trim().toUpperCase()).filter(Boolean);
  for (const item of items) {
    if (!(OVERLAY_IDS as readonly string[]).includes(item)) throw new CliError(`unknown overlay "${item}"`, EXIT.usage, `overlays are ${OVERLAY_IDS.join(", ")}`);
  }
  return items as OverlayId[];
}
