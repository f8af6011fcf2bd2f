// Functions JavaScript code assigns to members, and object literals a function binds to a variable, are
// functions of their own. Found on a held-out code base, TanStack Table's core (8 of 8 "how" questions
// started in the wrong scope): its features give each column and table their methods inside factory
// functions (`column.toggleSorting = (…) => { … }` in `createColumn(column, table)`, `const coreInstance = {
// getRow: … }` in `createTable`), which had been no functions at all — their calls counted as the factory's,
// and no chain could start at or pass through them. CommonJS modules (`exports.f = …`, Express's
// `res.send = function send(…)`) had the same gap at module level, their calls with no caller (PGC.md, "The
// call graph").
import { describe, expect, it } from "vitest";
import { CallGraph } from "../../../agents/pgc/callgraph/call-graph.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";
import { answerOver, callsFrom, climbOver, sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const CODE = {
  core: {
    "core/table.ts": lines(
      "export interface Row { id: string; getValue(columnId: string): unknown }",
      "export const createRow = (table: Table, id: string): Row => {",
      "  const row: Row = {",
      "    id,",
      "    getValue: (columnId) => {",
      "      return table.getColumn(columnId).accessorFn(row);",
      "    },",
      "  };",
      "  return row;",
      "};",
      "export function createTable(options: TableOptions): Table {",
      "  const table = {} as Table;",
      "  const coreInstance: CoreInstance = {",
      "    getRow: (id: string) => table.getRowModel().rowsById[id],",
      "    getRowModel: () => {",
      "      return options.getCoreRowModel(table);",
      "    },",
      "  };",
      "  Object.assign(table, coreInstance);",
      "  if (options.debug) {",
      "    table.describe = () => JSON.stringify(options);",
      "  }",
      "  return table;",
      "}",
    ),
  },
  features: {
    "features/sorting.ts": lines(
      "export const RowSorting = {",
      "  createColumn: (column: Column, table: Table): void => {",
      "    column.getAutoSortDir = () => {",
      "      const first = table.getRow('0');",
      "      return first.getValue(column.id) ? 'asc' : 'desc';",
      "    };",
      "    column.toggleSorting = (desc?: boolean) => {",
      "      const direction = column.getAutoSortDir();",
      "      table.setSorting([{ id: column.id, desc: direction === 'desc' }]);",
      "    };",
      "  },",
      "};",
    ),
  },
  lib: {
    "lib/response.js": lines(
      "var http = require('http');",
      "var res = Object.create(http.ServerResponse.prototype);",
      "module.exports = res;",
      "res.send = function send(body) {",
      "  return this.end(body);",
      "};",
      "res.json = function json(obj) {",
      "  return this.send(JSON.stringify(obj));",
      "};",
      "exports.sendJson = function (value) {",
      "  return res.json(value);",
      "};",
    ),
  },
};

describe("functions assigned to members and object literals bound in a function", () => {
  const scopes = withScopes("mesh-assigned-methods-", CODE);
  const graph = (scope: string) => new CallGraph((scopes().get(scope) as Pgc).data);

  it("makes a factory's `column.m = (…) => …` a method of the object written, defined by the factory", () => {
    const features = graph("features");
    expect(callsFrom(features, "column.toggleSorting")).toEqual({ local: ["column.getAutoSortDir:8"], exits: ["setSorting:9"] });
    // Its calls are its own, not the factory's: the factory only defines the two methods.
    expect(callsFrom(features, "RowSorting.createColumn")).toEqual({ local: ["column.getAutoSortDir:3", "column.toggleSorting:7"], exits: [] });
    expect(callsFrom(features, "column.getAutoSortDir").exits).toEqual(["getRow:4", "getValue:5"]);
  });

  it("makes the functions of an object literal a function binds to a variable that object's methods", () => {
    const core = graph("core");
    expect(callsFrom(core, "createTable").local).toEqual(["coreInstance.getRow:14", "coreInstance.getRowModel:15"]);
    expect(callsFrom(core, "coreInstance.getRow").local).toEqual(["coreInstance.getRowModel:14"]);
    expect(callsFrom(core, "row.getValue").exits).toEqual(["accessorFn:6", "getColumn:6"]);
    // Under an `if`, an assignment is no definition: its calls stay the function's.
    expect(core.nodes.some((n) => n.name === "describe")).toBe(false);
  });

  it("makes CommonJS's `exports.f = …` a function and `res.m = function …` a method of `res`, calling each other", () => {
    const lib = graph("lib");
    expect(callsFrom(lib, "sendJson").local).toEqual(["res.json:11"]);
    expect(callsFrom(lib, "res.json").local).toEqual(["res.send:8"]);
  });

  it("does not climb from such a method to the function that defines it: that only builds its object", async () => {
    const outcome = await climbOver(scopes(), "features", "column.toggleSorting", "How does RowSorting's createColumn toggle the sorting of a column?");
    expect(outcome.steps.map((s) => s.symbol)).toEqual(["column.toggleSorting"]);
    expect(outcome.decisions.at(-1)?.detail).toContain("nothing else calls it");
  });

  it("traces a question through them across scopes", async () => {
    const answer = await answerOver(scopes(), "When column.toggleSorting() runs, how does the sort direction get picked from the first row's value?");
    const steps = (answer.chain ?? []).map((s) => `${s.scope}:${s.symbol}`);
    // The first row's value is read through the row object `createRow` builds in the core scope.
    expect(steps).toEqual(["features:column.toggleSorting", "features:column.getAutoSortDir", "core:row.getValue"]);
  });
});
