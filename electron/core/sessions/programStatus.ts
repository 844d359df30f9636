/**
 * What an agent CLI says of itself on the terminal: Codex writes OSC 7501 sequences such as
 * `ESC ] 7501 ; state=working:app=codex ESC \` (working, blocked:kind=permission, done, idle, error,
 * clear). The CLI's own word, immediate, and it covers what its hooks miss (API errors, limits).
 */
export const PROGRAM_STATES = ['working', 'blocked', 'done', 'idle', 'error', 'clear'] as const;
export type ProgramState = (typeof PROGRAM_STATES)[number];

const START = '\u001b]7501;';
/** A sequence longer than this is not one of these reports; it is dropped, not buffered. */
const MAX_SEQUENCE = 256;

/** Finds program status reports in terminal output, also when one is split across chunks. */
export class ProgramStatusScanner {
  private carry = '';

  feed(data: string): ProgramState[] {
    const text = this.carry + data;
    this.carry = '';
    const states: ProgramState[] = [];
    let from = 0;
    for (;;) {
      const start = text.indexOf(START, from);
      if (start < 0) break;
      const body = start + START.length;
      const end = terminatorAt(text, body);
      if (end < 0) {
        if (text.length - start <= MAX_SEQUENCE) this.carry = text.slice(start);
        return states;
      }
      const state = /^state=([a-z]+)/.exec(text.slice(body, end))?.[1];
      if (state && (PROGRAM_STATES as readonly string[]).includes(state)) states.push(state as ProgramState);
      from = end;
    }
    this.carry = partialStart(text);
    return states;
  }
}

/** Index of the sequence's terminator (BEL or ESC \) at or after `from`, or -1. */
function terminatorAt(text: string, from: number): number {
  const bell = text.indexOf('\u0007', from);
  const st = text.indexOf('\u001b\\', from);
  if (bell < 0) return st;
  if (st < 0) return bell;
  return Math.min(bell, st);
}

/** The end of `text` that could begin a report continued in the next chunk. */
function partialStart(text: string): string {
  for (let length = Math.min(START.length - 1, text.length); length > 0; length--) {
    if (START.startsWith(text.slice(text.length - length))) return text.slice(text.length - length);
  }
  return '';
}
