import { performance } from 'node:perf_hooks';

export interface LoopStats {
  /** Operations completed (rows, when an operation writes several). */
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Runs `concurrency` loops of `operation` until `done()` says stop, timing each call. The
 * operation returns how many rows it handled, so batched writes count rows, not calls.
 */
export async function runLoops(concurrency: number, done: () => boolean, operation: (loop: number) => Promise<number>): Promise<LoopStats> {
  const latencies: number[] = [];
  let rows = 0;
  const started = performance.now();
  const loop = async (index: number) => {
    while (!done()) {
      const before = performance.now();
      // Not `rows += await …`: that reads `rows` before awaiting and loses other loops' counts.
      const handled = await operation(index);
      latencies.push(performance.now() - before);
      rows += handled;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => loop(index)));
  const seconds = (performance.now() - started) / 1000;
  return { rows, seconds, rowsPerSecond: rows / seconds, ...latencyPercentiles(latencies) };
}

/** `done` for a loop that runs for a fixed time. */
export function forMs(durationMs: number): () => boolean {
  const end = performance.now() + durationMs;
  return () => performance.now() >= end;
}

export function latencyPercentiles(latencies: number[]): { p50Ms: number; p99Ms: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Prints rows as an aligned two-or-more-column table under a title. */
export function printTable(title: string, rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log(`\n${title}`);
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('   '));
  }
}

export const formatRate = (value: number): string => Math.round(value).toLocaleString('en-US');
export const formatMs = (value: number): string => `${value.toFixed(2)} ms`;
export const formatRatio = (value: number): string => `${value.toFixed(2)}x`;
