import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The benchmarks start the built server exactly as the browser tests do.
export { startServer } from '../e2e/server.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

/** Sends `total` requests with `concurrency` in flight; returns latencies (ms) and throughput. */
export async function load(
  total: number,
  concurrency: number,
  send: () => Promise<Response>,
): Promise<{ p50: number; p95: number; p99: number; rps: number; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      const t0 = performance.now();
      const res = await send();
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (!res.ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    rps: total / seconds,
    errors,
  };
}
