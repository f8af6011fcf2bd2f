// A small kernel-like code base: five subsystems, a header scope split, cycles, and every unresolved kind.
import type { CodeReference, ScopeFacts } from "../../topology/index.js";

function call(target: string, from_file: string, line: number): CodeReference {
  return { kind: "call", target, from_file, line };
}

function include(target: string, from_file: string, line: number): CodeReference {
  return { kind: "include", target, from_file, line };
}

const DEV_C = "net/core/dev.c";
const E1000_C = "drivers/net/ethernet/intel/e1000/e1000_main.c";
const MAPPING_C = "kernel/dma/mapping.c";

/** Derived edges: net→drivers, net→kernel, drivers→{kernel, mm, net}, kernel→{fs, mm}, mm→kernel. */
export const KERNEL_FACTS: ScopeFacts[] = [
  {
    scope: "net",
    paths: ["net/"],
    symbols: ["netdev_alloc_skb", "napi_schedule"],
    references: [
      call("e1000_xmit_frame", DEV_C, 4120),
      call("e1000_xmit_frame", DEV_C, 4188),
      call("mod_timer", DEV_C, 2001),
      include("linux/interrupt.h", DEV_C, 12),
      call("napi_schedule", DEV_C, 6100), // defined by net itself: local, not an edge
      call("trace_net_dev_xmit", DEV_C, 3550), // defined nowhere
      include("../../../../outside.h", DEV_C, 14), // escapes the repository root
    ],
  },
  {
    scope: "drivers",
    paths: ["drivers/"],
    symbols: ["e1000_xmit_frame", "e1000_alloc_rx_buffers"],
    references: [
      call("dma_alloc_coherent", E1000_C, 2270),
      call("dma_map_single", E1000_C, 4400),
      include("linux/dma-mapping.h", E1000_C, 30),
      call("alloc_pages", E1000_C, 4410),
      include("linux/mm.h", E1000_C, 31), // mm owns this one header: longer prefix than kernel's include/linux/
      call("netdev_alloc_skb", E1000_C, 4390),
      include("asm/io.h", E1000_C, 40), // arch include root not configured
    ],
  },
  {
    scope: "kernel",
    paths: ["kernel/", "include/linux/"],
    symbols: ["dma_alloc_coherent", "dma_map_single", "mod_timer", "schedule"],
    references: [
      call("__dma_alloc", MAPPING_C, 500),
      call("kmalloc", MAPPING_C, 510),
      include("../../mm/internal.h", MAPPING_C, 9), // relative to kernel/dma/
      call("vfs_read", "kernel/kexec_file.c", 220),
    ],
  },
  {
    scope: "mm",
    paths: ["mm/", "include/linux/mm.h"],
    symbols: ["alloc_pages", "__dma_alloc", "kmalloc"],
    references: [
      call("schedule", "mm/page_alloc.c", 3900),
      call("set_pte_at", "mm/memory.c", 5000), // defined by both arch scopes: ambiguous
    ],
  },
  { scope: "fs", paths: ["fs/"], symbols: ["vfs_read"], references: [] },
  { scope: "arch/x86", paths: ["arch/x86/"], symbols: ["set_pte_at"], references: [] },
  { scope: "arch/arm64", paths: ["arch/arm64/"], symbols: ["set_pte_at"], references: [] },
];
