// Reliability tables and expected calibration error: does a similarity of 0.9 come true nine times in ten?

export const RELIABILITY_BINS = 10;

export interface ReliabilityBin {
  lower: number;
  upper: number;
  count: number;
  mean_predicted: number;
  observed_accuracy: number;
}

/** Equal-width bins over [0, 1]; empty bins are left out. */
export function reliabilityTable(predicted: readonly number[], correct: readonly number[], bins = RELIABILITY_BINS): ReliabilityBin[] {
  const counts = new Array<number>(bins).fill(0);
  const sums = new Array<number>(bins).fill(0);
  const hits = new Array<number>(bins).fill(0);
  predicted.forEach((p, i) => {
    const bin = Math.min(bins - 1, Math.max(0, Math.floor(p * bins)));
    counts[bin]! += 1;
    sums[bin]! += p;
    hits[bin]! += correct[i]!;
  });
  const out: ReliabilityBin[] = [];
  counts.forEach((count, bin) => {
    if (count === 0) return;
    out.push({
      lower: bin / bins,
      upper: (bin + 1) / bins,
      count,
      mean_predicted: sums[bin]! / count,
      observed_accuracy: hits[bin]! / count,
    });
  });
  return out;
}

/** ECE: the count-weighted mean gap between predicted and observed accuracy; null when there is nothing to measure. */
export function expectedCalibrationError(table: readonly ReliabilityBin[]): number | null {
  const total = table.reduce((sum, bin) => sum + bin.count, 0);
  if (total === 0) return null;
  return table.reduce((sum, bin) => sum + (bin.count / total) * Math.abs(bin.mean_predicted - bin.observed_accuracy), 0);
}
