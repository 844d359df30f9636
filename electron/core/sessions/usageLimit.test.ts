import { describe, expect, it } from 'vitest';
import { parseLimitReset } from './usageLimit';

// 2026-11-29 15:00 UTC = 10:00 in New York (EST, UTC-5).
const NOW = Date.UTC(2026, 10, 29, 15, 0);

describe('parseLimitReset', () => {
  it('reads a time with its zone', () => {
    const at = parseLimitReset("You've hit your session limit · resets 8pm (America/New_York)", NOW, 'UTC');
    expect(new Date(at as number).toISOString()).toBe('2026-11-30T01:00:00.000Z');
  });

  it('reads a time in the host zone', () => {
    expect(new Date(parseLimitReset('5-hour limit reached - resets 3pm', NOW, 'UTC') as number).toISOString()).toBe('2026-11-29T15:00:00.000Z');
    expect(new Date(parseLimitReset("You're out of extra usage · resets 11:30am", NOW, 'UTC') as number).toISOString()).toBe(
      '2026-11-30T11:30:00.000Z',
    );
    expect(new Date(parseLimitReset('limit reached, resets 12am', NOW, 'Europe/Berlin') as number).toISOString()).toBe(
      '2026-11-29T23:00:00.000Z',
    );
  });

  it('rolls to the next day when the time has passed today', () => {
    const at = parseLimitReset('usage limit reached - resets 9am (America/New_York)', NOW, 'UTC');
    expect(new Date(at as number).toISOString()).toBe('2026-11-30T14:00:00.000Z');
  });

  it('gives null without a time and ignores an unknown zone', () => {
    expect(parseLimitReset('usage limit reached', NOW)).toBeNull();
    expect(new Date(parseLimitReset('resets 8pm (Mars/Olympus)', NOW, 'UTC') as number).toISOString()).toBe('2026-11-29T20:00:00.000Z');
  });
});
