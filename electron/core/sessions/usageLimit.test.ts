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

describe('parseLimitReset on what the real CLIs print', () => {
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

  it('reads Claude Code 2.1.197 limit lines, with and without a date', () => {
    expect(iso(parseLimitReset("You've hit your session limit · resets 2:48pm (Europe/Paris)", NOW, 'UTC'))).toBe('2026-11-30T13:48:00.000Z');
    expect(iso(parseLimitReset("You've hit your weekly limit · resets Dec 3, 12:50pm (Europe/Paris)", NOW, 'UTC'))).toBe('2026-12-03T11:50:00.000Z');
    expect(iso(parseLimitReset("You've hit your Opus limit · resets Dec 1, 1:50pm (Europe/Paris)", NOW, 'UTC'))).toBe('2026-12-01T12:50:00.000Z');
    expect(iso(parseLimitReset("You've hit your limit · resets Jan 2, 2027, 3pm (America/New_York)", NOW, 'UTC'))).toBe('2027-01-02T20:00:00.000Z');
  });

  it('reads Codex 0.171.0 limit lines (12-hour clock, ordinal dates, wrapped text joined)', () => {
    expect(iso(parseLimitReset('■ You’ve hit your usage limit. Try again at 1:46 PM.', NOW, 'UTC'))).toBe('2026-11-30T13:46:00.000Z');
    expect(iso(parseLimitReset('usage to purchase more credits or try again at Dec 2nd, 2026 3:46 PM.', NOW, 'UTC'))).toBe('2026-12-02T15:46:00.000Z');
    expect(iso(parseLimitReset('or try again at 11:57 AM.', NOW, 'America/New_York'))).toBe('2026-11-29T16:57:00.000Z');
  });

  it('takes a date without a year as the next such date', () => {
    const newYearsEve = Date.UTC(2026, 11, 31, 12, 0);
    expect(iso(parseLimitReset('resets Jan 2, 9am', newYearsEve, 'UTC'))).toBe('2027-01-02T09:00:00.000Z');
  });

  it('gives no time for "try again later"', () => {
    expect(parseLimitReset('■ You’ve hit your usage limit. Try again later.', NOW)).toBeNull();
  });
});
