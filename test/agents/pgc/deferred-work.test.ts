// C deferred work, parsed for real: a function stored into a work item, timer or tasklet by the item's
// address (`INIT_WORK(&vi->config_work, fn)`, `timer_setup(&vi->poll.timer, fn, 0)`) is bound to that field,
// not called by the code setting the item up; a call that queues or arms the item (`schedule_work(&…)`,
// `mod_timer(&…)`) calls the function through the field; one that cancels or flushes it does not. Found on
// Linux's virtio_net: the climb from `virtnet_config_changed_work` had gone to the probe that set the item
// up instead of `virtnet_config_changed`, which queues it when the device's configuration changes.
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../agents/pgc/parse/index.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { sourceLines, withScopes } from "../../helpers/scopes.js";
import type { Pgc } from "../../../agents/pgc/pgc.js";

const NET = sourceLines(
  "static void virtnet_config_changed_work(struct work_struct *work)",
  "{",
  "\tnetif_carrier_on(vi->dev);",
  "}",
  "static void virtnet_poll_timer(struct timer_list *t)",
  "{",
  "\tnapi_schedule(&vi->napi);",
  "}",
  "static int virtnet_probe(struct virtio_device *vdev)",
  "{",
  "\tINIT_WORK(&vi->config_work, virtnet_config_changed_work);",
  "\ttimer_setup(&vi->poll.timer, virtnet_poll_timer, 0);",
  "\treturn 0;",
  "}",
  "/* the device's configuration changed: update the link state */",
  "static void virtnet_config_changed(struct virtio_device *vdev)",
  "{",
  "\tschedule_work(&vi->config_work);",
  "\tmod_timer(&vi->poll.timer, jiffies + HZ);",
  "}",
  "static void virtnet_remove(struct virtio_device *vdev)",
  "{",
  "\tcancel_work_sync(&vi->config_work);",
  "\tdel_timer_sync(&vi->poll.timer);",
  "}",
);

describe("C deferred work", () => {
  it("binds the function to the item's field where the item is set up, and calls through it where the item is queued or armed", async () => {
    const parsed = await parseFile({ path: "drivers/net/virtio_net.c", content: NET, language: "c" });
    expect(parsed.bindings.map((b) => `${b.field}=${b.target}@${b.line}`)).toEqual(["config_work=virtnet_config_changed_work@11", "timer=virtnet_poll_timer@12"]);
    const calls = parsed.calls.filter((c) => c.caller !== null).map((c) => `${c.caller}->${c.callee}@${c.line}`);
    expect(calls).toEqual(expect.arrayContaining(["virtnet_config_changed->vi->config_work@18", "virtnet_config_changed->vi->poll.timer@19"]));
    // Setting the item up calls the setter, not the function; cancelling or waiting for it runs nothing.
    expect(calls).not.toContain("virtnet_probe->virtnet_config_changed_work@11");
    expect(calls.filter((c) => c.startsWith("virtnet_remove->vi->"))).toEqual([]);
    expect(parsed.symbols.find((s) => s.name === "virtnet_config_changed_work")?.address_taken).toBe(true);
  });

  describe("in a scope's call graph", () => {
    const scopes = withScopes("mesh-deferred-work-", { drivers: { "drivers/net/virtio_net.c": NET } });
    const question = parseQuestion("When the device's configuration changes, how is the link state updated?");
    const net = () => scopes().get("drivers") as Pgc;

    it("goes from the code queueing the item to the function, citing the line that queues it and the one that stored it", async () => {
      const result = await net().search().expand({ question, mode: "forward", from: { symbol: "virtnet_config_changed" }, covered: {} });
      const lead = result.leads.find((l) => l.path.some((i) => result.steps[i]?.symbol === "virtnet_config_changed_work"));
      expect(lead).toBeDefined();
      const step = result.steps.find((s) => s.symbol === "virtnet_config_changed_work");
      expect(step?.cite.line_start).toBe(1);
    });

    it("names the code queueing the item, not the code setting it up, as the function's caller", async () => {
      const result = await net().search().expand({ question, mode: "callers", from: { symbol: "virtnet_config_changed_work" }, covered: {}, max_depth: 0 });
      const callers = result.leads.flatMap((l) => (l.exit ? [`${result.steps[l.path[0] ?? -1]?.symbol}@${l.exit.call_site.line}`] : []));
      expect(callers).toContain("virtnet_config_changed@18");
      expect(callers.map((c) => c.split("@")[0])).not.toContain("virtnet_probe");
    });
  });
});
