// Isotonic regression (pool-adjacent-violators) over pre-binned scores: a monotone step map score → P(correct).

export interface IsotonicMap {
  /** Ascending; value i applies to scores in [boundaries[i-1], boundaries[i]). */
  boundaries: number[];
  /** Non-decreasing; one more than boundaries. */
  values: number[];
}

interface Block {
  lo: number;
  hi: number;
  count: number;
  positives: number;
}

/** Laplace-smoothed rate: a block of 20 right answers says "very likely", not "certain"; big blocks keep their rate. */
const smoothedRate = (block: Block): number => (block.positives + 1) / (block.count + 2);

/** Equal-score runs never straddle two bins, so every score maps to exactly one fitted value. */
function preBin(scores: readonly number[], labels: readonly number[], minBinSamples: number): Block[] {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]! || a - b);
  const bins: Block[] = [];
  let start = 0;
  while (start < order.length) {
    let end = Math.min(start + minBinSamples, order.length);
    while (end < order.length && scores[order[end]!] === scores[order[end - 1]!]) end++;
    // A short tail joins the bin before it rather than standing alone on a handful of samples.
    if (order.length - end < minBinSamples) end = order.length;
    let positives = 0;
    for (let i = start; i < end; i++) positives += labels[order[i]!]!;
    bins.push({ lo: scores[order[start]!]!, hi: scores[order[end - 1]!]!, count: end - start, positives });
    start = end;
  }
  return bins;
}

/** Pools neighbours until the smoothed rates strictly rise; pooling re-smooths the summed counts. */
function poolAdjacentViolators(bins: readonly Block[]): Block[] {
  const stack: Block[] = [];
  for (const bin of bins) {
    let current = { ...bin };
    while (stack.length > 0 && smoothedRate(stack[stack.length - 1]!) >= smoothedRate(current)) {
      const previous = stack.pop()!;
      current = {
        lo: previous.lo,
        hi: current.hi,
        count: previous.count + current.count,
        positives: previous.positives + current.positives,
      };
    }
    stack.push(current);
  }
  return stack;
}

export function fitIsotonic(scores: readonly number[], labels: readonly number[], minBinSamples: number): IsotonicMap {
  const blocks = poolAdjacentViolators(preBin(scores, labels, minBinSamples));
  return {
    boundaries: blocks.slice(1).map((block, i) => (blocks[i]!.hi + block.lo) / 2),
    values: blocks.map(smoothedRate),
  };
}

export function applyIsotonic(map: IsotonicMap, score: number): number {
  let lo = 0;
  let hi = map.boundaries.length;
  // The number of boundaries at or below the score is the index of its value.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (map.boundaries[mid]! <= score) lo = mid + 1;
    else hi = mid;
  }
  return map.values[lo] ?? 0;
}
