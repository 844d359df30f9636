/**
 * What a page that lost its connection cannot reach, in words. A machine's page is told why when
 * the machine is what went (ssh's reason, or its host's); without a reason, what went is the Drover
 * host serving the page (its door closed), and the machine's work goes on all the same.
 */
export function unreachableWords(machine: string | null, problem: string | null): string {
  return `${machine && problem ? `${machine} unreachable` : 'Not connected to the Drover host'} — reconnecting…`;
}
