import { showsEmptyPrompt, type ScreenReading } from './stateDetector';

/** How typing a prompt into an agent went. */
export type PromptTyping =
  | { outcome: 'submitted' }
  /** Nothing was typed: the agent is not positively at an empty prompt. */
  | { outcome: 'not-ready'; why: string }
  /** The text was typed but never showed in the agent's input, so Enter was not pressed. */
  | { outcome: 'not-taken'; why: string }
  /** Submitted, but the agent showed no sign of starting a turn: the text may sit in its input. */
  | { outcome: 'unconfirmed'; why: string };

export interface PromptTimings {
  /** Pause between the text and Enter, so agent CLIs do not take Enter as part of a paste. */
  submitDelayMs: number;
  /** How long the text may take to show in the agent's input, and the turn to start. */
  confirmMs: number;
  /** How long ago a person's last key (or their start of the agent) must be (see SessionService.readiness). */
  keysQuietMs: number;
}

/** The running agent a prompt is typed into. */
export interface TypingTarget {
  /** Its screen now, read by its profile's patterns. */
  read(): Promise<ScreenReading>;
  /** Whether the CLI asked for bracketed paste. */
  bracketedPaste(): Promise<boolean>;
  write(data: string): void;
  /** Someone (a person, a script) typed into it since this typing began: an Enter would submit their keys too. */
  typedMeanwhile(): boolean;
  /** Counts the CLI's own signs of a turn (hooks, status reports). */
  turnSignals(): number;
  /** False once its session ended. */
  alive(): boolean;
  /** A shell note runs nothing that could show a turn: Enter is all. */
  submitOnly: boolean;
}

const POLL_MS = 50;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Why Drover may not type into this screen now, in a person's words; null when it may. */
export function whyNotAtPrompt(reading: ScreenReading): string | null {
  if (showsEmptyPrompt(reading)) return null;
  if (reading.dialog) return 'showing a dialog or menu';
  if (reading.busy) return 'working';
  return 'not showing an empty prompt';
}

/** Reads the screen until `done` holds for it, or the time is up (undefined). */
async function pollScreen(target: TypingTarget, timeoutMs: number, done: (reading: ScreenReading) => boolean): Promise<ScreenReading | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reading = await target.read();
    if (done(reading)) return reading;
    if (Date.now() >= deadline || !target.alive()) return undefined;
    await delay(POLL_MS);
  }
}

/**
 * Types `text` as the agent's next prompt and submits it: as a bracketed paste where the CLI asked
 * for one, and Enter only once the text showed in its input (the empty prompt is gone and no dialog
 * opened meanwhile: a dialog ignores a paste, so no echo means no Enter), never once someone else
 * typed too (their keys would go in with it). Then it waits for a sign that a turn started, so a
 * text the agent did not take up is reported, never typed again blindly. The caller has checked
 * the agent is at an empty prompt.
 */
export async function typePrompt(target: TypingTarget, text: string, timings: PromptTimings): Promise<PromptTyping> {
  const signalsBefore = target.turnSignals();
  const before = await target.read();
  target.write((await target.bracketedPaste()) ? `\u001b[200~${text}\u001b[201~` : text);
  await delay(timings.submitDelayMs);
  const opened = (reading: ScreenReading) => reading.dialogTexts > before.dialogTexts;
  const landed = await pollScreen(target, timings.confirmMs, (reading) => opened(reading) || !reading.prompt);
  if (!target.alive()) return { outcome: 'not-taken', why: 'the session ended while typing' };
  if (!landed) return { outcome: 'not-taken', why: 'the text never showed in its input' };
  if (opened(landed)) return { outcome: 'not-taken', why: 'a dialog opened before Enter' };
  if (target.typedMeanwhile()) return { outcome: 'not-taken', why: 'someone typed into it meanwhile, so Enter was not pressed' };
  target.write('\r');
  if (target.submitOnly) return { outcome: 'submitted' };
  const started = (reading: ScreenReading) => target.turnSignals() > signalsBefore || reading.busy || reading.prompt;
  const half = timings.confirmMs / 2;
  const taken = await pollScreen(target, half, started);
  if (taken) return { outcome: 'submitted' };
  // A CLI that took Enter for part of the paste (a newline) still holds the text: one more Enter
  // submits it; the text itself is never typed again.
  const now = await target.read();
  if (!target.alive() || opened(now) || now.prompt || target.typedMeanwhile()) return { outcome: 'unconfirmed', why: 'it showed no sign of starting a turn' };
  target.write('\r');
  return (await pollScreen(target, half, started))
    ? { outcome: 'submitted' }
    : { outcome: 'unconfirmed', why: 'it showed no sign of starting a turn; the text may still sit in its input' };
}
