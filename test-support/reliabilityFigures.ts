/**
 * Prints a reliability test's figures as one line, so a run of the suite (and CI's log) shows what
 * was tried and what it found, not only that it passed.
 */
export function reportFigures(name: string, figures: Record<string, number | string>): void {
  const parts = Object.entries(figures).map(([label, value]) => `${label}: ${typeof value === 'number' ? value.toLocaleString('en-US') : value}`);
  console.log(`[reliability] ${name} — ${parts.join(', ')}`);
}
