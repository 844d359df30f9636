/**
 * The most characters an inbox message holds: what a person or an agent may send, and where Drover
 * cuts a message it writes itself (a failed check's log, review comments, a task's result). A
 * message is stored, announced, listed and typed about whole, so one without a bound could make a
 * project's work state too large to send.
 */
export const MAX_MESSAGE_CHARS = 100_000;

const HIGH_SURROGATE = /[\uD800-\uDBFF]$/;

/**
 * A message's body as an inbox holds it: `head`, the start of a text `length` characters long,
 * whole when that is within the bound, else cut to it with a note that says so.
 */
export function messageBodyWithin(head: string, length = head.length): string {
  if (length <= MAX_MESSAGE_CHARS) return head;
  const note = `\n\n[Drover cut this message here: it was ${length.toLocaleString('en-US')} characters long, and a message holds at most ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}.]`;
  // Never half of a character written as two UTF-16 units: it could not be stored as UTF-8.
  return `${head.slice(0, MAX_MESSAGE_CHARS - note.length).replace(HIGH_SURROGATE, '')}${note}`;
}
