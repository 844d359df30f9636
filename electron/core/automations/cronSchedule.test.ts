import { describe, expect, it } from 'vitest';
import { missedRunToCatchUp, nextRunAfter, nextRuns, parseCron } from './cronSchedule';

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString());
const runs = (expression: string, timeZone: string, after: string, count: number) =>
  nextRuns(parseCron(expression, timeZone), at(after), count).map((instant) => iso(instant));

describe('parseCron', () => {
  it('names the field that does not parse', () => {
    expect(() => parseCron('0 25 * * *', 'UTC')).toThrow('The hour field "25" does not parse: 25 is outside 0-23.');
    expect(() => parseCron('61 * * * *', 'UTC')).toThrow('The minute field "61" does not parse');
    expect(() => parseCron('0 0 0 * *', 'UTC')).toThrow('The day-of-month field "0" does not parse');
    expect(() => parseCron('0 0 * foo *', 'UTC')).toThrow('The month field "foo" does not parse: "foo" is not a number nor a name');
    expect(() => parseCron('0 0 * * mon-8', 'UTC')).toThrow('The day-of-week field "mon-8" does not parse: 8 is outside 0-7.');
    expect(() => parseCron('*/0 * * * *', 'UTC')).toThrow('The minute field "*/0" does not parse: the step "0" is not a whole number above 0.');
    expect(() => parseCron('5-1 * * * *', 'UTC')).toThrow('the range 5-1 runs backwards');
    expect(() => parseCron('0 0 30 2 *', 'UTC')).toThrow('The day-of-month field "30" does not parse: no month of the month field has day 30');
  });

  it('refuses a wrong count of fields, an unknown macro and an unknown zone', () => {
    expect(() => parseCron('* * * *', 'UTC')).toThrow('has 4 fields; a schedule has five');
    expect(() => parseCron('@reboot', 'UTC')).toThrow('"@reboot" is not a schedule Drover knows');
    expect(() => parseCron('@daily', 'Mars/Olympus')).toThrow('"Mars/Olympus" is not a time zone');
  });

  it('reads lists, ranges, steps, names, 7 as Sunday and the macros', () => {
    expect(parseCron('1,5-7,*/20 * * * *', 'UTC').minutes).toEqual([0, 1, 5, 6, 7, 20, 40]);
    expect(parseCron('10/15 * * * *', 'UTC').minutes).toEqual([10, 25, 40, 55]);
    expect([...parseCron('0 0 * JAN,mar *', 'UTC').months].sort()).toEqual([1, 3]);
    expect([...parseCron('0 0 * * 7', 'UTC').daysOfWeek]).toEqual([0]);
    expect(runs('@hourly', 'UTC', '2026-01-01T10:15:00Z', 2)).toEqual(['2026-01-01T11:00:00.000Z', '2026-01-01T12:00:00.000Z']);
    expect(runs('@weekly', 'UTC', '2026-01-01T10:15:00Z', 1)).toEqual(['2026-01-04T00:00:00.000Z']);
    expect(runs('@yearly', 'UTC', '2026-01-01T10:15:00Z', 1)).toEqual(['2027-01-01T00:00:00.000Z']);
  });
});

describe('nextRunAfter', () => {
  it('runs at the time of the zone the schedule is read in', () => {
    expect(runs('0 9 * * 1-5', 'America/New_York', '2026-01-02T15:00:00Z', 2)).toEqual(['2026-01-05T14:00:00.000Z', '2026-01-06T14:00:00.000Z']);
    expect(runs('@daily', 'Asia/Tokyo', '2026-01-01T00:00:00Z', 1)).toEqual(['2026-01-01T15:00:00.000Z']);
  });

  it('runs every minute strictly after the given instant', () => {
    expect(runs('* * * * *', 'UTC', '2026-01-01T10:15:00Z', 2)).toEqual(['2026-01-01T10:16:00.000Z', '2026-01-01T10:17:00.000Z']);
    expect(runs('* * * * *', 'UTC', '2026-01-01T10:15:30Z', 1)).toEqual(['2026-01-01T10:16:00.000Z']);
  });

  it('runs on a day matching either day field when both are restricted, as cron does', () => {
    // The 13th of the month or any Friday.
    expect(runs('0 0 13 * 5', 'UTC', '2026-02-01T00:00:00Z', 3)).toEqual(['2026-02-06T00:00:00.000Z', '2026-02-13T00:00:00.000Z', '2026-02-20T00:00:00.000Z']);
  });

  it('finds 29 February years ahead', () => {
    expect(runs('0 12 29 2 *', 'UTC', '2026-03-01T00:00:00Z', 1)).toEqual(['2028-02-29T12:00:00.000Z']);
  });

  it('runs a time the clock skips in spring once, just after the jump', () => {
    // Berlin jumps from 02:00 to 03:00 on 29 March 2026: 02:30 runs at 03:30 (01:30 UTC), once.
    expect(runs('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 3)).toEqual([
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
    // An hourly schedule does not run twice at 03:30 (the skipped 02:30 and the real 03:30).
    expect(runs('30 * * * *', 'Europe/Berlin', '2026-03-29T00:00:00Z', 3)).toEqual([
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-29T02:30:00.000Z',
    ]);
  });

  it('runs a time the clock shows twice in autumn once, at its first showing', () => {
    // Berlin goes back from 03:00 to 02:00 on 25 October 2026: 02:30 is shown at 00:30 and 01:30 UTC.
    expect(runs('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    expect(runs('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00Z', 4)).toEqual([
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T02:00:00.000Z', // 03:00 CET: the second 02:00 (01:00 UTC) does not run again
      '2026-10-25T03:00:00.000Z',
      '2026-10-25T04:00:00.000Z',
    ]);
    // A daily run keeps its local time across the change.
    expect(runs('0 9 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z']);
  });

  it('refuses a day no month has, unless a weekday makes the schedule run', () => {
    expect(() => parseCron('0 0 31 4 *', 'UTC')).toThrow('no month of the month field has day 31');
    expect(iso(nextRunAfter(parseCron('0 0 31 4 1', 'UTC'), at('2026-01-01T00:00:00Z')))).toBe('2026-04-06T00:00:00.000Z');
  });
});

describe('missedRunToCatchUp', () => {
  const hour = 3_600_000;
  const daily9 = parseCron('0 9 * * *', 'UTC');

  it('runs the missed schedule once when it is less late than the window', () => {
    expect(iso(missedRunToCatchUp(daily9, at('2026-01-01T08:00:00Z'), at('2026-01-01T10:00:00Z'), 2 * hour))).toBe('2026-01-01T09:00:00.000Z');
  });

  it('lets a run go that is later than the window', () => {
    expect(missedRunToCatchUp(daily9, at('2026-01-01T08:00:00Z'), at('2026-01-01T12:00:00Z'), 2 * hour)).toBeNull();
  });

  it('runs only the latest of many missed runs, never a burst', () => {
    const everyMinute = parseCron('* * * * *', 'UTC');
    expect(iso(missedRunToCatchUp(everyMinute, at('2026-01-01T00:00:00Z'), at('2026-01-03T10:00:30Z'), hour))).toBe('2026-01-03T10:00:00.000Z');
  });

  it('runs nothing when nothing was missed since the last check', () => {
    expect(missedRunToCatchUp(daily9, at('2026-01-01T09:00:00Z'), at('2026-01-01T10:00:00Z'), 2 * hour)).toBeNull();
  });
});
