// The compound identifiers a long function uses past its indexed body (its O1 document's first 30 lines),
// over C parsed for real: kept on the symbol, they are its body terms, and a question writing one finds the
// function as an entry point (`case UI_DEV_CREATE:` in a long ioctl switch).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compoundIdentifiers, INDEXED_BODY_LINES, MAX_BODY_USES } from "../../../agents/pgc/parse/body-uses.js";
import { MAX_BODY_LINES } from "../../../agents/pgc/overlays/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { scopePgc, type ScopePgc } from "../../helpers/scope-pgc.js";

const filler = Array.from({ length: 30 }, (_, i) => `\t\tretval = step(udev, ${i});`);
const SOURCES: Record<string, string> = {
  "misc/uinput.c": [
    "static long uinput_ioctl_handler(struct file *file, unsigned int cmd)",
    "{",
    "\tint retval = 0;",
    "\tswitch (cmd) {",
    "\tcase UI_GET_VERSION:",
    ...filler,
    "\tcase UI_DEV_CREATE:",
    "\t\tretval = uinput_create_device(udev);",
    "\t\tbreak;",
    "\t}",
    "\treturn retval;",
    "}",
    "",
    "static int uinput_create_device(struct uinput_device *udev)",
    "{",
    "\treturn register_device(udev);",
    "}",
    "",
  ].join("\n"),
};

let scope: ScopePgc;

beforeAll(async () => {
  scope = await scopePgc("body-uses-", SOURCES, "misc", ["misc/"]);
});
afterAll(() => scope.close());

describe("identifiers a long function uses past its indexed body", () => {
  it("are the compound names of those lines, in order, each once; the indexed body is the O1 document's", () => {
    expect(INDEXED_BODY_LINES).toBe(MAX_BODY_LINES);
    expect(compoundIdentifiers(["case UI_DEV_CREATE: x = make_it(a, b);", "if (enforceActions) UI_DEV_CREATE;", "plain words only"])).toEqual(["UI_DEV_CREATE", "make_it", "enforceActions"]);
    expect(compoundIdentifiers(Array.from({ length: 200 }, (_, i) => `v_${i}`))).toHaveLength(MAX_BODY_USES);
  });

  it("are kept on the symbol past line 30 only, and find the function for a question writing one", async () => {
    const handler = scope.pgc.data.symbols.find((s) => s.name === "uinput_ioctl_handler");
    expect(handler?.uses).toEqual(["UI_DEV_CREATE", "uinput_create_device"]);
    expect(scope.pgc.data.symbols.find((s) => s.name === "uinput_create_device")?.uses).toBeUndefined();
    const question = parseQuestion("Where is the UI_DEV_CREATE ioctl handled?");
    const entry = scope.pgc.search().entry(question);
    expect(entry.candidates[0]?.symbol).toBe("uinput_ioctl_handler");
    expect(entry.candidates[0]?.matches).toEqual(expect.arrayContaining([expect.objectContaining({ term: "ui_dev_create", field: "body" })]));
  });
});
