import type { EventEmitter } from 'node:events';

/**
 * The last resort of a long-running host: a promise rejection nothing handled is logged, with its
 * stack, and the host keeps serving (Node's default would end the process and every client's work
 * with it). Every door already answers failures itself; this catches what slipped past.
 */
export function keepServingOnUnhandledRejection(log: (line: string) => void, target: Pick<EventEmitter, 'on' | 'off'> = process): () => void {
  const onRejection = (reason: unknown) => {
    log(`unexpected error (Drover kept serving): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  };
  target.on('unhandledRejection', onRejection);
  return () => target.off('unhandledRejection', onRejection);
}
