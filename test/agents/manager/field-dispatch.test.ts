// C calls through struct fields over a real fleet: the core calls `ops->ndo_start_xmit(…)`, three driver
// scopes store their transmit functions into that field, and a traced chain crosses into the driver the
// question names — with the call line and the line that stored the function into the field both cited,
// hashed and checked — and into neither when the question names no driver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citationHash } from "../../../agents/protocol/index.js";
import { CorpusFleet } from "../../helpers/corpus-fleet.js";

const SOURCES: Record<string, string> = {
  "net/core/dev.c": `#include <linux/netdevice.h>

/**
 * dev_queue_xmit - queue a buffer for transmission on its device
 * @skb: the buffer to send
 */
int dev_queue_xmit(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	const struct net_device_ops *ops = dev->netdev_ops;

	if (!netif_running(dev))
		return -1;
	return ops->ndo_start_xmit(skb, dev);
}

int netif_running(struct net_device *dev)
{
	return dev->flags & 1;
}

int netif_rx(struct sk_buff *skb)
{
	return 0;
}
`,
  "drivers/net/veth.c": `#include <linux/netdevice.h>

/* veth_forward_skb - hand a frame to the peer device's receive path */
static int veth_forward_skb(struct net_device *peer, struct sk_buff *skb)
{
	skb->dev = peer;
	return netif_rx(skb);
}

/* veth_xmit - transmit a frame by delivering it to the veth peer */
static netdev_tx_t veth_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	return veth_forward_skb(priv->peer, skb);
}

static int veth_open(struct net_device *dev)
{
	return 0;
}

static const struct net_device_ops veth_netdev_ops = {
	.ndo_open		= veth_open,
	.ndo_start_xmit		= veth_xmit,
};
`,
  "drivers/net/loopback.c": `#include <linux/netdevice.h>

/* loopback_xmit - transmit a frame by looping it back to the receive path */
static netdev_tx_t loopback_xmit(struct sk_buff *skb, struct net_device *dev)
{
	return netif_rx(skb);
}

static void loopback_setup(struct net_device *dev)
{
	dev->ops.ndo_start_xmit = &loopback_xmit;
}
`,
  "drivers/net/macsec.c": `#include <linux/netdevice.h>

/* secy_encrypt - protect a frame with the secure channel's key */
static struct sk_buff *secy_encrypt(struct sk_buff *skb)
{
	return skb;
}

/* secy_start_xmit - transmit a frame on a secure channel */
static netdev_tx_t secy_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	skb = secy_encrypt(skb);
	return netif_rx(skb);
}

static const struct net_device_ops secy_netdev_ops = {
	.ndo_start_xmit		= secy_start_xmit,
};
`,
};

const SCOPES: Record<string, string> = { "net-core": "net/core", veth: "drivers/net/veth.c", loopback: "drivers/net/loopback.c", macsec: "drivers/net/macsec.c" };

let fleet: CorpusFleet;

beforeAll(async () => {
  fleet = await CorpusFleet.start("mesh-field-", SOURCES, SCOPES);
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
});

describe("a C call through a struct field, across scopes", () => {
  it("crosses into the driver the question names, citing the call line and the line that stored the function", async () => {
    const result = await fleet.manager.ask("How does dev_queue_xmit hand a frame to the veth driver?");
    expect(result.outcome).toBe("chain");
    const chain = result.chain ?? [];
    expect(chain.map((s) => `${s.scope}:${s.symbol}`).slice(0, 3)).toEqual(["net-core:dev_queue_xmit", "veth:veth_xmit", "veth:veth_forward_skb"]);
    const step = chain[1];
    expect(step?.call_site?.text).toContain("ops->ndo_start_xmit(skb, dev)");
    const bound = step?.call_site?.bound_at;
    expect(bound).toMatchObject({ field: "ndo_start_xmit", file_path: "drivers/net/veth.c" });
    expect(citationHash(fleet.lineOf("drivers/net/veth.c", bound?.line ?? 0))).toBe(bound?.sha256);
    expect(fleet.lineOf("drivers/net/veth.c", bound?.line ?? 0)).toMatch(/\.ndo_start_xmit\s*=\s*veth_xmit/);
    for (const hop of result.knowledge_chain) expect(hop.verdict.status).toBe("accepted");
    // The binding line is cited by the hop of the scope it is in.
    expect(result.knowledge_chain.find((h) => h.scope === "veth")?.citations.some((c) => c.line_start === bound?.line)).toBe(true);
    expect(result.answer).toMatch(/through the field ndo_start_xmit, set at drivers\/net\/veth\.c:\d+/);
  });

  it("picks the other implementation when the question names the other driver (`&loopback_xmit` in a body)", async () => {
    const result = await fleet.manager.ask("How does dev_queue_xmit hand a frame to the loopback driver?");
    const chain = result.chain ?? [];
    expect(chain.map((s) => `${s.scope}:${s.symbol}`).slice(0, 2)).toEqual(["net-core:dev_queue_xmit", "loopback:loopback_xmit"]);
    expect(chain[1]?.call_site?.bound_at?.text).toContain("dev->ops.ndo_start_xmit = &loopback_xmit;");
  });

  it("picks the implementation whose file the question names, when its function's name does not say it", async () => {
    const result = await fleet.manager.ask("How does dev_queue_xmit hand a frame to the macsec driver?");
    const chain = result.chain ?? [];
    expect(chain.map((s) => `${s.scope}:${s.symbol}`).slice(0, 2)).toEqual(["net-core:dev_queue_xmit", "macsec:secy_start_xmit"]);
    expect(chain[1]?.call_site?.bound_at?.text).toMatch(/\.ndo_start_xmit\s*=\s*secy_start_xmit/);
  });

  it("does not guess an implementation when the question names none", async () => {
    const result = await fleet.manager.ask("How does dev_queue_xmit check the device is running before it transmits?");
    const chain = result.chain ?? [];
    expect(chain[0]?.symbol).toBe("dev_queue_xmit");
    expect(chain.every((s) => s.scope === "net-core")).toBe(true);
    expect(result.decisions?.some((d) => /ndo_start_xmit/.test(d.detail) && /stores no function the question names into the field ndo_start_xmit/.test(d.detail))).toBe(true);
  });

  it("answers who calls a function stored into a field: the functions calling through that field, with both lines", async () => {
    const result = await fleet.manager.ask("Who calls veth_xmit?");
    const chain = result.chain ?? [];
    expect(chain.map((s) => `${s.scope}:${s.symbol}`)).toEqual(["veth:veth_xmit", "net-core:dev_queue_xmit"]);
    const site = chain[1]?.call_site;
    expect(site?.text).toContain("ops->ndo_start_xmit(skb, dev)");
    expect(site?.bound_at?.text).toMatch(/\.ndo_start_xmit\s*=\s*veth_xmit/);
    for (const hop of result.knowledge_chain) expect(hop.verdict.status).toBe("accepted");
    // The binding line is cited with veth_xmit's own scope, the call line with the caller's.
    expect(result.knowledge_chain.find((h) => h.scope === "veth")?.citations.some((c) => c.line_start === site?.bound_at?.line)).toBe(true);
    expect(result.knowledge_chain.find((h) => h.scope === "net-core")?.citations.some((c) => c.line_start === site?.line)).toBe(true);
    expect(result.decisions?.some((d) => /veth stores veth_xmit into the field ndo_start_xmit .*net-core call through it/.test(d.detail))).toBe(true);
  });
});

