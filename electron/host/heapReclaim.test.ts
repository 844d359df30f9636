import { describe, expect, it } from 'vitest';
import { fullCollection, HeapReclaimPolicy } from './heapReclaim';

const MB = 1024 * 1024;

/** What the policy answers to each of these old-space sizes, in MB, in turn. */
function answers(policy: HeapReclaimPolicy, sizes: number[]): boolean[] {
  return sizes.map((size) => policy.look(size * MB));
}

describe('HeapReclaimPolicy', () => {
  it('collects once a burst of allocation has stopped, never in its middle', () => {
    const policy = new HeapReclaimPolicy();
    // A flood: the old space grows fast; then it stops growing.
    expect(answers(policy, [40, 80, 160, 240])).toEqual([false, false, false, false]);
    expect(policy.look(240.5 * MB)).toBe(true);
    policy.collected(50 * MB);
    // Quiet afterwards: the garbage is gone and nothing more is collected.
    expect(answers(policy, [50, 51, 52])).toEqual([false, false, false]);
  });

  it('leaves steady output to V8, and collects once it stops, each time from where the last collection left the heap', () => {
    const policy = new HeapReclaimPolicy();
    expect(answers(policy, [100, 103, 106, 109, 112, 115, 118, 121, 124, 127, 130, 133, 136])).toEqual(Array(13).fill(false));
    expect(policy.look(136.5 * MB)).toBe(true);
    policy.collected(101 * MB);
    expect(answers(policy, [104, 107, 110, 110])).toEqual([false, false, false, false]);
  });

  it('counts from what V8 collected by itself', () => {
    const policy = new HeapReclaimPolicy();
    expect(answers(policy, [100, 120, 60, 63, 66, 69])).toEqual([false, false, false, false, false, false]);
    expect(answers(policy, [72, 75, 78, 81, 84, 87, 90, 93, 93])).toEqual([false, false, false, false, false, false, false, false, true]);
  });
});

describe('fullCollection', () => {
  it('frees what nothing refers to any more', async () => {
    const collect = fullCollection();
    const garbage = new WeakRef({ payload: 'x'.repeat(1024) + String(Math.random()) });
    // A WeakRef's target lives until the end of the turn that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(garbage.deref()).toBeUndefined();
  });
});
