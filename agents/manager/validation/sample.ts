// Which citations get their hash checked: a uniform sample drawn with an injectable random source.

/**
 * `size` distinct indices of `0..count-1`, uniformly chosen (a partial Fisher–Yates shuffle driven by
 * `random`, a function into [0, 1)), returned in ascending order; all indices when size ≥ count.
 */
export function sampleIndices(count: number, size: number, random: () => number): number[] {
  const indices = Array.from({ length: count }, (_, index) => index);
  if (size >= count) return indices;
  for (let i = 0; i < size; i++) {
    // Clamped so a source returning exactly 1 (or a little more) cannot index past the end.
    const j = Math.min(count - 1, i + Math.floor(random() * (count - i)));
    const picked = indices[j] as number;
    indices[j] = indices[i] as number;
    indices[i] = picked;
  }
  return indices.slice(0, Math.max(0, size)).sort((a, b) => a - b);
}
