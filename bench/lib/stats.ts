export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The line run-all.ts collects: `BENCH_RESULT {json}`. */
export function report(name: string, figures: Record<string, unknown>): void {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify({ name, figures })}\n`);
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
