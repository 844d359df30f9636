import { instantOfWall, isTimeZone, wallTimeAt, type WallTime } from '../time/wallClock';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The reset time agent CLIs print after a usage limit, e.g. Claude Code's "resets 8pm",
 * "resets 2:48pm (Europe/Paris)", "resets Dec 3, 12:50pm (Europe/Paris)", "resets Jan 2, 2027, 3pm",
 * Codex's "Try again at 1:46 PM." and "try again at Dec 2nd, 2026 3:46 PM.".
 */
const RESET_TIME = new RegExp(
  [
    String.raw`\b(?:resets?|try again)(?:\s+at)?\s+`,
    String.raw`(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?)?`,
    String.raw`(\d{1,2})(?::(\d{2}))?\s*(am|pm)?`,
    String.raw`(?:\s*\(([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)\))?`,
  ].join(''),
  'i',
);

const DAY_MS = 24 * 60 * 60 * 1000;

/** The wall time `days` after the date of `date` (day overflow rolls into the next month and year). */
function laterDate(date: WallTime, days: number, hour: number, minute: number): WallTime {
  const day = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour, minute };
}

/** The first instant at or after `now` whose wall-clock time in `timeZone` is hour:minute. */
function nextWallClock(hour: number, minute: number, timeZone: string, now: number): number {
  const today = wallTimeAt(now, timeZone);
  for (let days = 0; days <= 2; days++) {
    const instant = instantOfWall(laterDate(today, days, hour, minute), timeZone);
    if (instant >= now) return instant;
  }
  return now + DAY_MS;
}

/** The date's instant (month 1-12); without a year, the next such date (CLIs omit the year within the next months). */
function onDate(month: number, day: number, year: number | null, hour: number, minute: number, timeZone: string, now: number): number {
  const wall = (inYear: number) => instantOfWall({ year: inYear, month, day, hour, minute }, timeZone);
  if (year !== null) return wall(year);
  const thisYear = wallTimeAt(now, timeZone).year;
  const instant = wall(thisYear);
  // A date a day or more behind now means the next year (Dec 31 read on Jan 1 stays in the past).
  return instant < now - DAY_MS ? wall(thisYear + 1) : instant;
}

/**
 * When a usage limit shown by an agent CLI resets. A time without a date is the next such time; a
 * time without a zone is in `localZone` (the CLIs print their own process's zone, the host's).
 * Null when the text gives no time ("try again later").
 */
export function parseLimitReset(text: string, now: number, localZone = Intl.DateTimeFormat().resolvedOptions().timeZone): number | null {
  const match = RESET_TIME.exec(text);
  if (!match) return null;
  const [, monthName, dayText, yearText, hourText, minuteText, meridiemText, zoneName] = match;
  let hour = Number(hourText);
  const minute = minuteText ? Number(minuteText) : 0;
  const meridiem = meridiemText?.toLowerCase();
  if (minute > 59 || hour > 23 || (meridiem && (hour < 1 || hour > 12))) return null;
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  const zone = zoneName && isTimeZone(zoneName) ? zoneName : localZone;
  if (!monthName) return nextWallClock(hour, minute, zone, now);
  const day = Number(dayText);
  if (day < 1 || day > 31) return null;
  return onDate(MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1, day, yearText ? Number(yearText) : null, hour, minute, zone, now);
}
