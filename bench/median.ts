// The middle value of a benchmark's runs (the mean of the two middle ones for an even count).
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median of the ratios this/that of runs made in turn (two builds measured alternately). */
export function pairedRatio(these: readonly number[], those: readonly number[]): string {
  return median(these.map((v, i) => v / (those[i] ?? Number.NaN)).filter(Number.isFinite)).toFixed(2);
}
