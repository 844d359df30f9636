import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, fullCollection, HeapReclaimPolicy } from './heapReclaim';

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

function oldSpaceSize(): { size: number; used: number } {
  const space = v8.getHeapSpaceStatistics().find((each) => each.space_name === 'old_space');
  return { size: space?.space_size ?? 0, used: space?.space_used_size ?? 0 };
}

/** A row of a terminal's scrollback, as far as the heap is concerned: an object and its text. */
function row(n: number): { text: string; n: number } {
  return { text: `row ${n} `.padEnd(100, 'x') + String(n), n };
}

/**
 * The largest the old space grew, over what it held, while a slow allocator keeps promoting
 * garbage into it beside 150,000 rows it keeps.
 */
async function oldSpaceGrowth(): Promise<number> {
  const collect = fullCollection();
  const held = Array.from({ length: 150_000 }, (_, n) => row(n));
  collect();
  const heldBytes = oldSpaceSize().used;
  const recent: { text: string; n: number }[][] = [];
  let largest = 0;
  for (let batch = 0; batch < 1_500; batch++) {
    recent.push(Array.from({ length: 200 }, (_, n) => row(n)));
    if (recent.length > 100) recent.shift();
    largest = Math.max(largest, oldSpaceSize().size);
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(held).toHaveLength(150_000);
  return largest / heldBytes;
}

describe('boundHeapGrowth', () => {
  // Compared with V8's own choice in the same process (the flag's default, 0, is "V8 decides"):
  // left to itself V8 let the old space grow to about 2.6 times what it holds here, bounded to 1.9 to 2.2.
  it('keeps the old space under what V8 would let it grow to while a slow allocator keeps promoting garbage into it', async () => {
    const byV8 = await oldSpaceGrowth();
    try {
      boundHeapGrowth();
      const bounded = await oldSpaceGrowth();
      expect(bounded).toBeLessThan(byV8 - 0.2);
    } finally {
      v8.setFlagsFromString('--heap-growing-percent=0');
    }
  });
});
