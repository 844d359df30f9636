/** A time as a clock on the wall of one time zone shows it (month 1-12, weekday 0 = Sunday). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone this host's clock shows (TZ, else the system's). */
export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function wallTimeAt(instant: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** The wall time read as if it were UTC: minutes of two wall times compare and subtract as numbers. */
export function wallAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
}

function sameWall(a: WallTime, b: WallTime): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;
}

const DAY_MS = 86_400_000;

/**
 * The instant at which the zone's clock shows `wall`. A time the clock shows twice (the hour it
 * goes back) is its first showing; a time it skips (the hour it jumps forward) is read with the
 * offset from before the jump, so it lands as far past the jump as it was past the skipped hour's
 * start (02:30 on a night that jumps from 02:00 to 03:00 is 03:30).
 */
export function instantOfWall(wall: WallTime, timeZone: string): number {
  const asUtc = wallAsUtc(wall);
  const offsetAt = (instant: number) => wallAsUtc(wallTimeAt(instant, timeZone)) - instant;
  const withOffsetBefore = asUtc - offsetAt(asUtc - DAY_MS);
  const withOffsetAfter = asUtc - offsetAt(asUtc + DAY_MS);
  const shown = [withOffsetBefore, withOffsetAfter].sort((a, b) => a - b).find((instant) => sameWall(wallTimeAt(instant, timeZone), wall));
  return shown ?? withOffsetBefore;
}
