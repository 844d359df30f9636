import { parseLimitReset } from './usageLimit';

/** A line of the screen that says the account hit its usage limit, with the line after it (some CLIs put the reset there). */
export interface LimitLine {
  line: string;
  context: string;
}

/**
 * Tells which usage-limit line on an agent's screen is new. A limit line stays in the transcript
 * long after its limit passed, a resumed conversation redraws old ones, and some CLIs show a limit
 * as a dialog that comes and goes; so a line is new when it shows more often than at the last look,
 * after the session's first turn began, and unless it is a redraw of a limit whose reset already
 * passed.
 */
export class LimitLineTracker {
  private previous = new Map<string, number>();
  private readonly actedOn = new Map<string, number | null>();
  private turnSeen = false;

  /** What showed before the session's first turn is history (a resumed transcript). */
  turnStarted(): void {
    this.turnSeen = true;
  }

  note(lines: readonly LimitLine[], now: number): LimitLine | null {
    const counts = new Map<string, number>();
    for (const { line } of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    const previous = this.previous;
    this.previous = counts;
    if (!this.turnSeen) return null;
    const found = lines.find(({ line }) => (counts.get(line) ?? 0) > (previous.get(line) ?? 0) && !this.isPastRedraw(line, now));
    if (found) this.actedOn.set(found.line, parseLimitReset(found.context, now));
    return found ?? null;
  }

  private isPastRedraw(line: string, now: number): boolean {
    const resetsAt = this.actedOn.get(line);
    return resetsAt !== undefined && resetsAt !== null && resetsAt <= now;
  }
}
