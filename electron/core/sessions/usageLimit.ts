const RESET_TIME = /\b(?:resets?|try again at)\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)\))?/i;

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

/** The first instant at or after `now` whose wall-clock time in `timeZone` is hour:minute. */
function nextWallClock(hour: number, minute: number, timeZone: string, now: number): number {
  const local = new Date(now + zoneOffset(now, timeZone));
  for (let day = 0; day <= 2; day++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + day, hour, minute);
    let instant = wall - zoneOffset(wall, timeZone);
    instant = wall - zoneOffset(instant, timeZone);
    if (instant >= now) return instant;
  }
  return now + DAY_MS;
}

/**
 * When a usage limit shown by an agent CLI resets, e.g. "resets 8pm (America/New_York)",
 * "resets 3pm", "resets 11:30am". Without a zone the host's own zone is meant. Null when the text
 * gives no time.
 */
export function parseLimitReset(text: string, now: number, localZone = Intl.DateTimeFormat().resolvedOptions().timeZone): number | null {
  const match = RESET_TIME.exec(text);
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = match[2] ? Number(match[2]) : 0;
  const meridiem = match[3]?.toLowerCase();
  if (minute > 59 || hour > 23 || (meridiem && (hour < 1 || hour > 12))) return null;
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  const zone = match[4] && isTimeZone(match[4]) ? match[4] : localZone;
  return nextWallClock(hour, minute, zone, now);
}
