// Which scope an exit of a traced chain continues in: the scopes defining its callee, narrowed by the
// module the caller imported it from — a package or dotted name by its path, a relative import from the
// caller's file, a directory's index by everything in the directory (where its re-exports come from).
import { describe, expect, it } from "vitest";
import { scopeMapOf } from "../../helpers/scopes.js";
import { namedAfterClass, oneOwnerEach } from "../../../agents/manager/search/one-owner.js";
import type { Probe } from "../../../agents/manager/search/choose-exit.js";
import { asModuleExit, chainedConstructions, FIELD_OWNER_BEAM, ownerOfExit, ownersOfExit, ownersOfModule, relativeModulePath, soleBinder } from "../../../agents/manager/search/exit-owner.js";
import type { ScopeFacts } from "../../../topology/index.js";
import type { SearchLead } from "../../../agents/protocol/index.js";

const FACTS: ScopeFacts[] = [
  { scope: "classic", paths: ["src/v4/classic/"], symbols: ["parse"], references: [] },
  { scope: "core", paths: ["src/v4/core/api.ts", "src/v4/core/index.ts"], symbols: ["api"], references: [] },
  { scope: "core-2", paths: ["src/v4/core/parse.ts", "src/v4/core/util.ts"], symbols: ["_parse", "clone"], references: [] },
  { scope: "v3", paths: ["src/v3/"], symbols: ["_parse", "clone"], references: [] },
  { scope: "logging", paths: ["logging/"], symbols: ["emit"], references: [] },
  { scope: "chardet", paths: ["chardet/__init__.py", "chardet/universaldetector.py"], symbols: ["detect"], references: [] },
  { scope: "charset-normalizer", paths: ["charset_normalizer/"], symbols: ["detect"], references: [] },
  { scope: "fs-ext2", paths: ["fs/ext2/"], symbols: ["ext2_file_write_iter"], references: [], fields: ["write_iter"] },
  { scope: "fs-ext4", paths: ["fs/ext4/"], symbols: ["ext4_file_write_iter"], references: [], fields: ["write_iter"] },
  { scope: "fs-fat", paths: ["fs/fat/"], symbols: ["fat_write_iter"], references: [], fields: ["write_iter"] },
  { scope: "input-evdev", paths: ["drivers/input/evdev.c"], symbols: ["evdev_events"], references: [], fields: ["events", "event"] },
  { scope: "input-leds", paths: ["drivers/input/input-leds.c"], symbols: ["input_leds_event"], references: [], fields: ["event"] },
];

const scopeMap = () => scopeMapOf(FACTS);

function exit(target: string, module: string | undefined, file: string): NonNullable<SearchLead["exit"]> {
  return { target, callee: target, ...(module ? { module } : {}), via: "reference", call_site: { file_path: file, line: 1, text: `${target}()`, sha256: "0".repeat(64) }, matches: [] };
}

describe("the scope an exit continues in", () => {
  it("resolves a relative module against the caller's file, for TS/JS and Python imports", () => {
    expect(relativeModulePath("../core/index.js", "src/v4/classic/parse.ts")).toBe("src/v4/core/index.js");
    expect(relativeModulePath("./util", "src/a.ts")).toBe("src/util");
    expect(relativeModulePath(".util", "logging/handlers.py")).toBe("logging/util");
    expect(relativeModulePath("..x.y", "a/b/c.py")).toBe("a/x/y");
    expect(relativeModulePath("email.generator", "a.py")).toBeNull();
  });

  it("takes a directory's index module for everything in the directory", async () => {
    const map = await scopeMap();
    expect([...ownersOfModule(map, "../core/index.js", "src/v4/classic/parse.ts")].sort()).toEqual(["core", "core-2"]);
    expect([...ownersOfModule(map, "../core", "src/v4/classic/parse.ts")].sort()).toEqual(["core", "core-2"]);
    expect(ownersOfModule(map, "../core/util.js", "src/v4/classic/parse.ts")).toEqual(["core-2"]);
  });

  it("continues in the scope the import points to when several scopes define the callee", async () => {
    const map = await scopeMap();
    const scores = new Map([["v3", 0.9]]);
    expect(ownerOfExit(exit("_parse", "../core/index.js", "src/v4/classic/parse.ts"), "classic", { ownership: map }, scores)).toEqual({ scope: "core-2" });
    // Without a module to tell them apart, the entry round's scores decide which comes first; the
    // look-ahead is told of each, and what each one's path adds chooses.
    expect(ownerOfExit(exit("_parse", undefined, "src/v4/classic/parse.ts"), "classic", { ownership: map }, scores)).toEqual({ scope: "v3" });
    expect(ownersOfExit(exit("_parse", undefined, "src/v4/classic/parse.ts"), "classic", { ownership: map }, scores)).toEqual({ scopes: ["v3", "core-2"] });
    const member = { ...exit("detect", undefined, "requests/models.py"), callee: "self.detector.detect", via: "member" as const };
    expect(ownersOfExit(member, "requests", { ownership: map }, new Map())).toEqual({ scopes: ["chardet", "charset-normalizer"] });
  });

  it("takes a member call through a name that is a package of the code base as a call into that package", async () => {
    const map = await scopeMap();
    // `chardet.detect(…)` after `from .compat import chardet`: two scopes define `detect`; the receiver says which.
    const member = { ...exit("detect", undefined, "requests/models.py"), callee: "chardet.detect", via: "member" as const };
    expect(asModuleExit(member, map)).toMatchObject({ via: "reference", module: "chardet" });
    expect(ownerOfExit(asModuleExit(member, map), "requests", { ownership: map }, new Map([["charset-normalizer", 0.9]]))).toEqual({ scope: "chardet" });
    // An object that is no package (`self.detector.detect()`), or a package that does not define the name, changes nothing.
    const object = { ...member, callee: "self.detector.detect" };
    expect(asModuleExit(object, map)).toBe(object);
    const elsewhere = { ...member, callee: "logging.detect" };
    expect(asModuleExit(elsewhere, map)).toBe(elsewhere);
  });

  it("follows a member exit naming its object's class only where that class is defined: a built-in's method is outside the code base", async () => {
    const map = await scopeMap();
    const member = (receiver: string): NonNullable<SearchLead["exit"]> => ({ ...exit("clone", undefined, "src/v4/classic/parse.ts"), callee: `${receiver}.clone`, via: "member", receiver_class: receiver });
    // `Object.clone(…)`: two scopes define `clone`, but no scope defines `Object`.
    expect(ownerOfExit(member("Object"), "classic", { ownership: map }, new Map())).toEqual({ none: "Object, the class clone is called through, is no class of the code base" });
    // A class the code base defines whose scopes define no `clone` (here `api`, the scope named so's): the
    // method is inherited from a base its worker would have named, so no scope's other `clone` is taken.
    const owners = map.ownersOf("api").join(", ");
    expect(ownerOfExit(member("api"), "classic", { ownership: map }, new Map([["v3", 0.5]]))).toEqual({ none: `api, the class clone is called through, is ${owners}'s, which defines no clone` });
  });

  it("looks into a field exit in each of the first scopes storing a function into the field, best scored first", async () => {
    const map = await scopeMap();
    const field = { ...exit("write_iter", undefined, "fs/read_write.c"), callee: "file->f_op->write_iter", via: "field" as const };
    // Only the owner knows whether it stores one the question names (ext4's, not ext2's): all are asked.
    expect(ownersOfExit(field, "fs", { ownership: map }, new Map([["fs-ext4", 0.6], ["fs-fat", 0.2]]))).toEqual({ scopes: ["fs-ext4", "fs-fat", "fs-ext2"] });
    expect(FIELD_OWNER_BEAM).toBeGreaterThanOrEqual(3);
    // A call by name still has one owner.
    expect(ownersOfExit(exit("_parse", "../core/index.js", "src/v4/classic/parse.ts"), "classic", { ownership: map }, new Map())).toEqual({ scopes: ["core-2"] });
    expect(ownersOfExit({ ...field, target: "read_iter" }, "fs", { ownership: map }, new Map())).toEqual({ none: "no other scope stores a function into the field read_iter" });
  });

  it("ranks a field's binders by what their entry candidates could add past the exit, when there are more than it looks into", async () => {
    const drivers = ["algos", "busses", "busses-2", "busses-3", "muxes", "busses-4"];
    const map = await scopeMapOf(drivers.map((d) => ({ scope: d, paths: [`drivers/i2c/${d}/`], symbols: [`${d}_xfer`], references: [], fields: ["master_xfer"] })));
    const field = { ...exit("master_xfer", undefined, "drivers/i2c/i2c-core-base.c"), callee: "adap->algo->master_xfer", via: "field" as const };
    // The entry round's scope scores favour the scopes sharing the question's common words…
    const scores = new Map([["algos", 0.11], ["busses-3", 0.1], ["busses", 0.099], ["muxes", 0.094], ["busses-2", 0.089], ["busses-4", 0.05]]);
    expect(ownersOfExit(field, "core", { ownership: map }, scores)).toEqual({ scopes: ["algos", "busses-3", "busses", "muxes"] });
    // …what their candidates add past the chain so far says which driver the question names.
    const adds = (owner: string) => (owner === "busses-2" ? 0.2 : owner === "busses-4" ? 0.01 : 0);
    expect(ownersOfExit(field, "core", { ownership: map }, scores, adds)).toEqual({ scopes: ["busses-2", "busses-4", "algos", "busses-3"] });
  });

  it("knows the scope that alone stores functions into a field: its one function there is what the call runs", async () => {
    const map = await scopeMap();
    expect(soleBinder({ ownership: map }, "events", "input-evdev")).toBe(true);
    expect(soleBinder({ ownership: map }, "event", "input-evdev")).toBe(false);
    expect(soleBinder({ ownership: map }, "write_iter", "fs-ext4")).toBe(false);
    expect(soleBinder({ ownership: map }, "events", "input-leds")).toBe(false);
  });

  it("tells a member call's owners apart by the class its object is named after", () => {
    const member = (callee: string): NonNullable<SearchLead["exit"]> => ({ ...exit("load", undefined, "engine/url.py"), callee, via: "member" });
    expect(namedAfterClass(member("plugins.load"), "PluginLoader.load")).toBe(true);
    expect(namedAfterClass(member("plugins.load"), "InstanceEvents.load")).toBe(false);
    expect(namedAfterClass(member("self._plugins.load"), "PluginLoader.load")).toBe(true);
    // A name imported from a module is an object as well (`from ..dialects import plugins`).
    expect(namedAfterClass({ ...member("plugins.load"), via: "reference", module: "..dialects" }, "PluginLoader.load")).toBe(true);
    // A receiver under four letters, a function of no class, or a call by name names nothing.
    expect(namedAfterClass(member("p.load"), "PluginLoader.load")).toBe(false);
    expect(namedAfterClass(member("plugins.load"), "load")).toBe(false);
    expect(namedAfterClass(exit("load", undefined, "engine/url.py"), "PluginLoader.load")).toBe(false);
  });

  it("keeps one owner of an exit looked into in several: the one worth most, the one named by the object on a tie", () => {
    const load = { ...exit("load", undefined, "engine/url.py"), callee: "plugins.load", via: "member" as const };
    const probe = (owner: string, qualified: string, carried: number, adds: number, lead = load): Probe =>
      ({ lead: { path: [0], call_sites: [], exit: lead, score: 0.05, coverage: 0.5 }, owner, carried, adds, own: 0.05, value: 0.05 + adds, reach: 0.5 + adds, result: { steps: [{ qualified }] } }) as unknown as Probe;
    const owners = (probes: Probe[]) => oneOwnerEach(probes).map((p) => p.owner);
    // Worth the same: the class the object is named after, whichever came first.
    expect(owners([probe("orm", "InstanceEvents.load", 0, 0), probe("util", "PluginLoader.load", 0, 0)])).toEqual(["util"]);
    // Worth more wins over the name (rxjs's `scheduler.schedule(…)` into AsyncAction's, not the abstract Scheduler's).
    expect(owners([probe("orm", "InstanceEvents.load", 0.1, 0.2), probe("util", "PluginLoader.load", 0, 0)])).toEqual(["orm"]);
    // Nothing to tell them apart: the first, the entry round's most relevant.
    expect(owners([probe("orm", "InstanceEvents.load", 0, 0), probe("ext", "Mutable.load", 0, 0)])).toEqual(["orm"]);
    // Another exit keeps its own owner.
    const other = { ...load, target: "get", callee: "plugins.get", call_site: { ...load.call_site, line: 2 } };
    expect(owners([probe("orm", "InstanceEvents.load", 0, 0), probe("util", "PluginLoader.get", 0, 0, other)])).toEqual(["orm", "util"]);
  });

  it("passes over a constructor whose object the same line calls a method on: the flow goes on into the method", () => {
    const lead = (e: NonNullable<SearchLead["exit"]>): SearchLead => ({ path: [0], call_sites: [], exit: e, score: 0.2, coverage: 0.5 });
    const built = exit("Parser", "email.parser", "http/client.py");
    const chained = { ...exit("parsestr", undefined, "http/client.py"), callee: "email.parser.Parser(_class=_class).parsestr", receiver_class: "Parser", via: "member" as const };
    expect([...chainedConstructions([lead(built), lead(chained)])]).toEqual(["http/client.py:1\0Parser"]);
    // An object built on an earlier line (`g = BytesGenerator(fp); g.flatten()`) leaves its constructor a step of its own.
    const later = { ...chained, callee: "g.flatten", target: "flatten", receiver_class: "BytesGenerator" };
    expect([...chainedConstructions([lead(exit("BytesGenerator", undefined, "smtplib.py")), lead(later)])]).toEqual([]);
  });

  it("continues a mixin's call on its own object in the scopes whose classes derive from the mixin, across scopes", async () => {
    // redis-py: `BasicKeyCommands.set` calls `self.execute_command(…)`, which its scope does not define;
    // `Redis` (client.py) derives from it through `CoreCommands` and `DataAccessCommands`, asyncio's `Redis`
    // through `AsyncCoreCommands`; a JSON helper and the sentinel define an `execute_command` of their own.
    const facts: ScopeFacts[] = [
      { scope: "commands-core", paths: ["redis/commands/core.py"], symbols: ["BasicKeyCommands", "DataAccessCommands", "CoreCommands", "AsyncCoreCommands", "set"], references: [], class_bases: { DataAccessCommands: ["BasicKeyCommands"], CoreCommands: ["DataAccessCommands"], AsyncCoreCommands: ["DataAccessCommands"] } },
      { scope: "redis", paths: ["redis/client.py"], symbols: ["Redis", "execute_command"], references: [], class_bases: { Redis: ["RedisModuleCommands", "CoreCommands"] } },
      { scope: "redis-asyncio", paths: ["redis/asyncio/"], symbols: ["Redis", "execute_command"], references: [], class_bases: { Redis: ["AsyncCoreCommands"] } },
      { scope: "json", paths: ["redis/commands/json/"], symbols: ["JSON", "execute_command"], references: [], class_bases: { JSON: ["JSONCommands"] } },
      { scope: "sentinel", paths: ["redis/sentinel.py"], symbols: ["Sentinel", "execute_command"], references: [] },
    ];
    const map = await scopeMapOf(facts);
    expect(map.heirsOf("BasicKeyCommands")).toEqual(["commands-core", "redis", "redis-asyncio"]);
    expect(map.heirsOf("Redis")).toEqual([]);
    const call = { ...exit("execute_command", undefined, "redis/commands/core.py"), callee: "self.execute_command", via: "member" as const };
    // Four scopes define it: too many to guess among, without the class the call is made in.
    expect(ownersOfExit(call, "commands-core", { ownership: map }, new Map())).toEqual({ none: "4 scopes define execute_command" });
    expect(ownersOfExit({ ...call, caller_class: "BasicKeyCommands" }, "commands-core", { ownership: map }, new Map())).toEqual({ scopes: ["redis", "redis-asyncio"] });
    // A class nothing derives from elsewhere leaves the definers as they were.
    expect(ownersOfExit({ ...call, caller_class: "Unrelated" }, "commands-core", { ownership: map }, new Map())).toEqual({ none: "4 scopes define execute_command" });
  });
});
