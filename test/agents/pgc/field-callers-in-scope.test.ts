// A C function stored into a struct field is called by the calls through that field in its own scope too: the
// HID core's `hid_device_probe` runs `hdrv->probe(hdev, id)`, and the generic driver beside it stores
// `.probe = hid_generic_probe`. Asked for the callers of `hid_generic_probe` (a climb's step), the scope had
// answered none — its calls through fields were indexed under the field's name only — and a chain beginning
// at the driver's probe ended "nothing else calls it". They are its callers, citing the line that stored it.
import { describe, expect, it } from "vitest";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { climbOver, sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const CODE = {
  hid: {
    "hid/hid-core.c": lines(
      "struct hid_driver { int (*probe)(struct hid_device *hdev); int (*remove)(struct hid_device *hdev); };",
      "",
      "static int hid_device_probe(struct hid_device *hdev, struct hid_driver *hdrv)",
      "{",
      "\tint ret = 0;",
      "\tif (hdrv->probe)",
      "\t\tret = hdrv->probe(hdev);",
      "\treturn ret;",
      "}",
    ),
    "hid/hid-generic.c": lines(
      "static int hid_generic_probe(struct hid_device *hdev)",
      "{",
      "\treturn hid_hw_start(hdev);",
      "}",
      "",
      "static struct hid_driver hid_generic = {",
      "\t.probe = hid_generic_probe,",
      "};",
    ),
  },
};

describe("the callers of a function stored into a struct field, in its own scope", () => {
  const scopes = withScopes("mesh-field-callers-", CODE);

  it("are the calls through that field, each citing where the function was stored", async () => {
    const hid = scopes().get("hid") as Pgc;
    const result = await hid.search().expand({ question: parseQuestion("How does the HID core probe the generic driver?"), mode: "callers", from: { symbol: "hid_generic_probe", file_path: "hid/hid-generic.c", line: 1 }, covered: {} });
    expect(result.steps.map((s) => s.qualified)).toEqual(["hid_device_probe"]);
    const site = result.leads[0]?.exit?.call_site;
    expect([site?.file_path, site?.line, site?.bound_at?.field, site?.bound_at?.file_path, site?.bound_at?.line]).toEqual(["hid/hid-core.c", 7, "probe", "hid/hid-generic.c", 7]);
  });

  it("let a climb go back through the field to where the path begins", async () => {
    const outcome = await climbOver(scopes(), "hid", "hid_generic_probe", "When the HID core binds a device, how is the generic driver's probe run?");
    expect(outcome.steps.map((s) => s.symbol)).toEqual(["hid_device_probe", "hid_generic_probe"]);
    expect(outcome.steps[1]?.call_site?.bound_at?.field).toBe("probe");
  });
});
