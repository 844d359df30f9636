import { fail } from '../errors';
import { instantOfWall, isTimeZone, wallAsUtc, wallTimeAt, type WallTime } from '../time/wallClock';

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  // 7 is Sunday too, as in every cron.
  { name: 'day-of-week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A five-field cron expression, read in one time zone. */
export interface CronSchedule {
  expression: string;
  timeZone: string;
  minutes: readonly number[];
  hours: readonly number[];
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  daysOfWeek: ReadonlySet<number>;
  /** Cron's rule: when both day fields are restricted, a day matching either runs. */
  dayFieldsRestricted: { ofMonth: boolean; ofWeek: boolean };
}

function refuse(field: FieldSpec, text: string, why: string): never {
  fail('bad-request', `The ${field.name} field "${text}" does not parse: ${why}.`);
}

function readValue(field: FieldSpec, whole: string, text: string): number {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (field.name === 'month' ? 1 : 0);
  if (!/^\d+$/.test(text)) refuse(field, whole, `"${text}" is not a number${field.names ? ` nor a name (${field.names.join(', ')})` : ''}`);
  const value = Number(text);
  if (value < field.min || value > field.max) refuse(field, whole, `${value} is outside ${field.min}-${field.max}`);
  return value;
}

function readField(field: FieldSpec, text: string): { values: Set<number>; restricted: boolean } {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const [range, stepText, extra] = item.split('/');
    if (extra !== undefined || range === undefined || range === '') refuse(field, text, `"${item}" is not a value, a range or a step`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) === 0) refuse(field, text, `the step "${stepText}" is not a whole number above 0`);
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (range === '*') {
      low = field.min;
      high = field.max;
    } else {
      const [first, last, beyond] = range.split('-');
      if (beyond !== undefined || first === undefined || first === '') refuse(field, text, `"${range}" is not a value or a range`);
      low = readValue(field, text, first);
      // "5/15" means from 5 to the end in steps of 15, as in Vixie cron.
      high = last !== undefined ? readValue(field, text, last) : stepText !== undefined ? field.max : low;
      if (high < low) refuse(field, text, `the range ${range} runs backwards`);
    }
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return { values, restricted: text !== '*' };
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Reads a cron expression: five fields (minute hour day-of-month month day-of-week) or a macro
 * (@hourly, @daily, @weekly, @monthly, @yearly). What does not parse is refused naming the field.
 */
export function parseCron(expression: string, timeZone: string): CronSchedule {
  if (!isTimeZone(timeZone)) fail('bad-request', `"${timeZone}" is not a time zone (use a name such as Europe/Berlin or UTC).`);
  const trimmed = expression.trim();
  const expanded = trimmed.startsWith('@') ? MACROS[trimmed.toLowerCase()] : trimmed;
  if (expanded === undefined) fail('bad-request', `"${trimmed}" is not a schedule Drover knows: use five fields or one of ${Object.keys(MACROS).join(', ')}.`);
  const texts = expanded.split(/\s+/);
  if (texts.length !== 5) {
    fail('bad-request', `"${trimmed}" has ${texts.length} field${texts.length === 1 ? '' : 's'}; a schedule has five: minute hour day-of-month month day-of-week.`);
  }
  const [minute, hour, dayOfMonth, month, dayOfWeek] = FIELDS.map((field, index) => readField(field, texts[index]!)) as [
    ReturnType<typeof readField>, ReturnType<typeof readField>, ReturnType<typeof readField>, ReturnType<typeof readField>, ReturnType<typeof readField>,
  ];
  if (dayOfWeek.values.delete(7)) dayOfWeek.values.add(0);
  if (dayOfMonth.restricted && !dayOfWeek.restricted) {
    const longest = Math.max(...[...month.values].map((m) => DAYS_IN_MONTH[m - 1]!));
    if (Math.min(...dayOfMonth.values) > longest) refuse(FIELDS[2]!, texts[2]!, `no month of the month field has day ${Math.min(...dayOfMonth.values)}, so it would never run`);
  }
  return {
    expression: trimmed,
    timeZone,
    minutes: [...minute.values].sort((a, b) => a - b),
    hours: [...hour.values].sort((a, b) => a - b),
    daysOfMonth: dayOfMonth.values,
    months: month.values,
    daysOfWeek: dayOfWeek.values,
    dayFieldsRestricted: { ofMonth: dayOfMonth.restricted, ofWeek: dayOfWeek.restricted },
  };
}

function dayMatches(schedule: CronSchedule, date: Date): boolean {
  if (!schedule.months.has(date.getUTCMonth() + 1)) return false;
  const byMonthDay = schedule.daysOfMonth.has(date.getUTCDate());
  const byWeekDay = schedule.daysOfWeek.has(date.getUTCDay());
  const { ofMonth, ofWeek } = schedule.dayFieldsRestricted;
  return ofMonth && ofWeek ? byMonthDay || byWeekDay : byMonthDay && byWeekDay;
}

/** Far enough for the rarest schedule that runs at all (29 February on a given weekday). */
const SEARCH_DAYS = 366 * 8;
/** More than any zone's clock ever moves at once: wall times this far before `after` cannot come after it. */
const WALL_SLACK_MS = 3 * 3_600_000;

/** The first instant after `after` (ms) at which the schedule runs, or null when it never does. */
export function nextRunAfter(schedule: CronSchedule, after: number): number | null {
  const start = wallTimeAt(after, schedule.timeZone);
  const earliestWall = wallAsUtc(start) - WALL_SLACK_MS;
  const day = new Date(Date.UTC(start.year, start.month - 1, start.day - 1));
  for (let searched = 0; searched < SEARCH_DAYS; searched++, day.setUTCDate(day.getUTCDate() + 1)) {
    if (!dayMatches(schedule, day)) continue;
    for (const hour of schedule.hours) {
      for (const minute of schedule.minutes) {
        const wall: WallTime = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour, minute };
        if (wallAsUtc(wall) < earliestWall) continue;
        const instant = instantOfWall(wall, schedule.timeZone);
        if (instant > after) return instant;
      }
    }
  }
  return null;
}

/** The first `count` runs after `after`. */
export function nextRuns(schedule: CronSchedule, after: number, count: number): number[] {
  const runs: number[] = [];
  let from = after;
  while (runs.length < count) {
    const next = nextRunAfter(schedule, from);
    if (next === null) break;
    runs.push(next);
    from = next;
  }
  return runs;
}

/**
 * The catch-up rule: of the runs the schedule missed since `checkedUntil` (the host was down),
 * the one to run now, once, if it is at most `windowMs` late; older ones are let go, never run as
 * a burst.
 */
export function missedRunToCatchUp(schedule: CronSchedule, checkedUntil: number, now: number, windowMs: number): number | null {
  let latest: number | null = null;
  let from = Math.max(checkedUntil, now - windowMs - 1);
  for (let next = nextRunAfter(schedule, from); next !== null && next <= now; next = nextRunAfter(schedule, from)) {
    latest = next;
    from = next;
  }
  return latest;
}
