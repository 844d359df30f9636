import type { AgentProfileInput } from '../../../shared/entities/profiles';
import type { AgentHookEvent, AgentSessionState } from '../../../shared/entities/sessions';
import { findMatches, type PatternMatch } from '../patterns/patternSandbox';
import type { LimitLine } from './limitLines';
import type { ProgramState } from './programStatus';
import { parseLimitReset } from './usageLimit';

export interface DetectedState {
  state: Exclude<AgentSessionState, 'exited'>;
  needsInput: boolean;
  limitResetsAt: number | null;
}

type ScreenPatterns = Pick<AgentProfileInput, 'promptPattern' | 'busyPattern' | 'needsInputPattern' | 'usageLimitPattern'> & Partial<Pick<AgentProfileInput, 'wakeAs'>>;

/** What a screen shows, by the profile's patterns (each tested against the whole visible screen). */
export interface ScreenReading {
  /** The agent waits at its input, empty. */
  prompt: boolean;
  busy: boolean;
  /** A dialog, menu or question waits for the person. */
  dialog: boolean;
  /** How often dialog texts show anywhere on screen (old ones included): a rise means one opened. */
  dialogTexts: number;
  /** Each line that says the account hit its usage limit, as often as it shows. */
  limitLines: LimitLine[];
}

export type StateSignal =
  /** The agent CLI's hooks, in Drover's words. */
  | { kind: 'hook'; event: AgentHookEvent; error?: string | undefined; message?: string | undefined }
  /** The CLI's own status report on the terminal (Codex's OSC 7501). */
  | { kind: 'program'; state: ProgramState }
  /** A person submitted a command to a plain shell (which has no hooks). */
  | { kind: 'submitted' }
  /**
   * The screen, read after output has been quiet for the profile's quiet period. `newLimit` is a
   * limit line that was not on screen before (see LimitLineTracker); `signalsDecide` is true once
   * the CLI's own signals (hooks, status reports) have spoken, so busy and ready are theirs to say.
   */
  | { kind: 'screen'; reading: ScreenReading; newLimit: LimitLine | null; signalsDecide: boolean };

// Profiles' patterns may be a person's: they run in the sandbox, with a time limit.
function test(pattern: string | null, text: string): boolean {
  return pattern !== null && findMatches(pattern, text, 1).length > 0;
}

/**
 * The whole line each match of a limit pattern ends on, and the line after it. A pattern may start
 * lines above the limit line, at what shows the CLI drew it (Claude Code's echo of the prompt).
 */
function limitLines(pattern: string | null, text: string): LimitLine[] {
  const lineEnd = (from: number) => {
    const end = text.indexOf('\n', from);
    return end < 0 ? text.length : end;
  };
  return matchesOf(pattern, text).map((match) => {
    const last = match.index + Math.max(0, match.length - 1);
    const start = text.lastIndexOf('\n', last) + 1;
    const end = lineEnd(last);
    const line = text.slice(start, end).trim();
    return { line, context: `${line} ${text.slice(end + 1, lineEnd(end + 1)).trim()}`.trim() };
  });
}

function matchesOf(pattern: string | null, text: string): PatternMatch[] {
  return pattern === null ? [] : findMatches(pattern, text);
}

/**
 * Agent CLIs draw a dialog in place of their input prompt, so while the prompt shows, only what is
 * below it can be a dialog: a dialog's text above it is history (an answered one a CLI did not
 * clear, as Gemini CLI leaves its trust dialog when it restarts itself).
 */
export function readScreen(text: string, profile: ScreenPatterns): ScreenReading {
  const promptAt = matchesOf(profile.promptPattern, text).at(-1)?.index ?? -1;
  return {
    prompt: promptAt >= 0,
    // Without a busy pattern (a shell), the prompt gone from the last line is what says a command
    // runs; not for a shell whose keys Drover follows (wakeAs shell-note): it is busy from the Enter
    // that submits a command, and its prompt is also gone while a line is being typed.
    busy: profile.busyPattern !== null ? test(profile.busyPattern, text) : profile.promptPattern !== null && promptAt < 0 && profile.wakeAs !== 'shell-note',
    dialog: test(profile.needsInputPattern, promptAt >= 0 ? text.slice(promptAt) : text),
    dialogTexts: matchesOf(profile.needsInputPattern, text).length,
    limitLines: limitLines(profile.usageLimitPattern, text),
  };
}

/**
 * Drover may type into the agent only when its screen positively shows the empty input prompt and
 * nothing that takes keys first: no dialog or menu (a digit or Enter would answer it), no busy line.
 */
export function showsEmptyPrompt(reading: ScreenReading): boolean {
  return reading.prompt && !reading.dialog && !reading.busy;
}

const READY: DetectedState = { state: 'ready', needsInput: false, limitResetsAt: null };
const BUSY: DetectedState = { state: 'busy', needsInput: false, limitResetsAt: null };
const NEEDS_INPUT: DetectedState = { state: 'ready', needsInput: true, limitResetsAt: null };

/**
 * The state an agent session moves to on a signal, or null when the signal changes nothing. The
 * CLI's own signals (hooks, status reports) win for busy and ready; the screen says what they do
 * not: dialogs (and that they closed), usage limits, and everything for CLIs without signals.
 */
export function detectState(current: DetectedState, signal: StateSignal, now: number): DetectedState | null {
  const next = fromSignal(current, signal, now);
  if (!next) return null;
  const same = next.state === current.state && next.needsInput === current.needsInput && next.limitResetsAt === current.limitResetsAt;
  return same ? null : next;
}

function fromSignal(current: DetectedState, signal: StateSignal, now: number): DetectedState | null {
  switch (signal.kind) {
    case 'hook':
      return fromHook(current, signal, now);
    case 'program':
      return fromProgram(current, signal.state, now);
    case 'submitted':
      // Enter answers a question on screen rather than starting anything.
      return current.needsInput || current.state === 'limited' ? null : BUSY;
    case 'screen':
      return fromScreen(current, signal, now);
  }
}

function limitedUntil(current: DetectedState, now: number): boolean {
  return current.state === 'limited' && current.limitResetsAt !== null && now < current.limitResetsAt;
}

function fromHook(current: DetectedState, signal: { event: AgentHookEvent; error?: string | undefined; message?: string | undefined }, now: number): DetectedState | null {
  switch (signal.event) {
    case 'prompt-submitted':
      return BUSY;
    case 'stopped':
      // A turn that ended well: the account answers again, whatever limit was known.
      return READY;
    case 'stop-failed':
      if (signal.error === 'rate_limit') return { state: 'limited', needsInput: false, limitResetsAt: parseLimitReset(signal.message ?? '', now) };
      return limitedUntil(current, now) ? null : READY;
    case 'needs-input':
      return current.state === 'limited' ? { ...current, needsInput: true } : NEEDS_INPUT;
    case 'session-start':
      // CLIs report it before their prompt is drawn (or while a first-run dialog is up): the screen says when.
      return null;
    case 'quota':
      return null;
  }
}

function fromProgram(current: DetectedState, state: ProgramState, now: number): DetectedState | null {
  switch (state) {
    case 'working':
      return BUSY;
    case 'blocked':
      return current.state === 'limited' ? { ...current, needsInput: true } : NEEDS_INPUT;
    case 'done':
    case 'idle':
    case 'error':
      // An error may be a usage limit: the screen says so once it settles.
      return limitedUntil(current, now) ? null : READY;
    case 'clear':
      return null;
  }
}

function fromScreen(
  current: DetectedState,
  signal: { reading: ScreenReading; newLimit: LimitLine | null; signalsDecide: boolean },
  now: number,
): DetectedState | null {
  const { reading } = signal;
  if (signal.newLimit !== null) return { state: 'limited', needsInput: reading.dialog, limitResetsAt: parseLimitReset(signal.newLimit.context, now) };
  if (current.state === 'limited') {
    // A limit without a known reset holds only while its line is still on screen.
    if (limitedUntil(current, now) || (current.limitResetsAt === null && reading.limitLines.length > 0)) {
      return reading.dialog === current.needsInput ? null : { ...current, needsInput: reading.dialog };
    }
  }
  if (reading.dialog) return NEEDS_INPUT;
  // The CLI's signals speak of turns: before the first one, and between a dialog's answer and the
  // turn's end, the screen says what they do not.
  if (signal.signalsDecide && current.state !== 'starting' && !current.needsInput && current.state !== 'limited') return null;
  if (reading.busy) return BUSY;
  if (reading.prompt) return READY;
  return null;
}
