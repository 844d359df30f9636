import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface BenchRow {
  name: string;
  drover: string;
  baseline: string;
  ratio: number;
  /** What the figure is held to; '-' when it is a figure only. */
  target: string;
  met: boolean;
}

function metCell(row: BenchRow): string {
  if (row.target === '-') return '-';
  return row.met ? 'yes' : 'NO';
}

/** Prints rows as an aligned table; ratios are Drover over the baseline measured in the same run. */
export function printTable(rows: BenchRow[]): void {
  const header = ['benchmark', 'drover', 'baseline', 'ratio', 'target', 'met'];
  const cells = rows.map((row) => [row.name, row.drover, row.baseline, `${row.ratio.toFixed(2)}x`, row.target, metCell(row)]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] as string).length)));
  const format = (line: string[]) => line.map((cell, i) => cell.padEnd(widths[i] as number)).join('  ');
  process.stdout.write(`${format(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const line of cells) process.stdout.write(`${format(line)}\n`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

// A full collection before each timed section, so garbage left by the setup (seeding 100,000 rows
// builds 200,000 task objects) is not collected inside the time of whichever side runs next.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export function timeIt(work: () => void): number {
  collectGarbage();
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
