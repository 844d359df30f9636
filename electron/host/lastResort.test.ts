import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { keepServingOnUnhandledRejection } from './lastResort';

describe('keepServingOnUnhandledRejection', () => {
  it('logs a rejection nothing handled, with its stack, for as long as it is installed', () => {
    const processLike = new EventEmitter();
    const logged: string[] = [];
    const uninstall = keepServingOnUnhandledRejection((line) => logged.push(line), processLike);
    processLike.emit('unhandledRejection', new RangeError('Invalid string length'));
    processLike.emit('unhandledRejection', 'a plain reason');
    uninstall();
    expect(processLike.listenerCount('unhandledRejection')).toBe(0);
    expect(logged).toEqual([
      expect.stringMatching(/^unexpected error \(Drover kept serving\): RangeError: Invalid string length\n\s+at /),
      'unexpected error (Drover kept serving): a plain reason',
    ]);
  });
});
