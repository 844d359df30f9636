/** How a task's process ended, in the same words for its reason and for the result an agent reads. */
export function describeExit(exit: { exitCode: number | null; signal: string | null }): string {
  if (exit.signal) return `killed by ${exit.signal}`;
  return exit.exitCode === null ? 'no exit code' : `exit code ${exit.exitCode}`;
}
