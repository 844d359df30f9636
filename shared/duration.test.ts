import { describe, expect, it } from 'vitest';
import { formatDuration, taskRunTime } from './duration';

describe('formatDuration', () => {
  it('reads as seconds, minutes or hours with padded parts', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(59_999)).toBe('59s');
    expect(formatDuration(65_000)).toBe('1m 05s');
    expect(formatDuration(2 * 3_600_000 + 3 * 60_000)).toBe('2h 03m');
    expect(formatDuration(-5)).toBe('0s');
  });
});

describe('taskRunTime', () => {
  it('is null before the start, live while running, fixed once ended', () => {
    expect(taskRunTime({ startedAt: null, endedAt: null }, 100)).toBeNull();
    expect(taskRunTime({ startedAt: 40, endedAt: null }, 100)).toBe(60);
    expect(taskRunTime({ startedAt: 40, endedAt: 70 }, 100)).toBe(30);
  });
});
