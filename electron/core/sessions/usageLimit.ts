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

/** Offset of `timeZone` from UTC at `instant`, in ms (positive east of Greenwich). */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(instant / 1000) * 1000;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The instant whose wall-clock time in `timeZone` is the given one. */
function wallClockInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
  const wall = Date.UTC(year, month, day, hour, minute);
  const guess = wall - zoneOffset(wall, timeZone);
  return wall - zoneOffset(guess, timeZone);
}

/** The first instant at or after `now` whose wall-clock time in `timeZone` is hour:minute. */
function nextWallClock(hour: number, minute: number, timeZone: string, now: number): number {
  const local = new Date(now + zoneOffset(now, timeZone));
  for (let day = 0; day <= 2; day++) {
    const instant = wallClockInstant(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + day, hour, minute, timeZone);
    if (instant >= now) return instant;
  }
  return now + DAY_MS;
}

/** The date's instant; without a year, the next such date (CLIs omit the year within the next months). */
function onDate(month: number, day: number, year: number | null, hour: number, minute: number, timeZone: string, now: number): number {
  if (year !== null) return wallClockInstant(year, month, day, hour, minute, timeZone);
  const thisYear = new Date(now + zoneOffset(now, timeZone)).getUTCFullYear();
  const instant = wallClockInstant(thisYear, month, day, hour, minute, timeZone);
  // A date a day or more behind now means the next year (Dec 31 read on Jan 1 stays in the past).
  return instant < now - DAY_MS ? wallClockInstant(thisYear + 1, month, day, hour, minute, timeZone) : instant;
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
  return onDate(MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()), day, yearText ? Number(yearText) : null, hour, minute, zone, now);
}
