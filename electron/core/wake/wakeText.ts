import type { Agent } from '../../../shared/entities/agents';
import type { InboxMessage } from '../../../shared/entities/inbox';
import type { WakeStyle } from '../../../shared/entities/profiles';
import { splitTaskResult } from '../tasks/taskResultText';

const MAX_PART = 600;

/** A wake names at most this many messages; the rest are counted, to be read with read_inbox. */
export const WAKE_NAMES_AT_MOST = 3;

/** C0/C1 controls and DEL: typed into a prompt they would act as keys (Ctrl-C, Esc, …). */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The glyphs agent CLIs draw their own lines with: prompts (`❯ ›`), answer and tool markers (`⎿ ● •
 * ■ ▣ △ ✗ ✦ ⬝`), boxes, rules and blocks (`│ ┃ ─ ╭ ╹ ▀`). A wake is typed into the prompt and echoed
 * there, wrapped: a message holding them could draw a row that reads as the CLI's own (Claude Code's
 * limit answer under the echo, `  ⎿  You've hit your session limit`), so they become look-alikes the
 * CLIs do not draw with, or spaces.
 */
const LOOK_ALIKES: ReadonlyArray<readonly [RegExp, string]> = [
  [/[─━┄┅┈┉╌╍═╴╶╸╺]/g, '-'],
  [/[│┃┆┇┊┋╎╏║╵╷╹╻]/g, '|'],
  [/[❯❱›]/g, '>'],
  [/[\u2022\u239b-\u23bf\u2500-\u25ff\u2700-\u27bf\u2b1d]/g, ' '],
];

/** Text that types as itself: no control characters, none of the CLIs' own glyphs. */
function typeable(text: string): string {
  return LOOK_ALIKES.reduce((result, [glyphs, lookAlike]) => result.replace(glyphs, lookAlike), text.replace(CONTROL_CHARACTERS, ' '));
}

/**
 * Spinner frames CLIs and build tools draw: braille dots (npm, ora, cargo), blocks, quadrants and
 * circle quarters, Claude Code's stars. Quoted from a task's output they are noise, not text.
 */
const SPINNER_GLYPHS = /[\u2800-\u28ff\u2580-\u25ff\u2722-\u273d]/g;

/** A shell's note quotes this much of a task output's end: enough to see how it ended, and the note stays one line. */
const SHELL_TAIL_AT_MOST = 200;

/** The text on one line: its line breaks marked ⏎, no controls, runs of spaces as one. */
function flatten(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ⏎ ')
    .replace(CONTROL_CHARACTERS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function oneLine(text: string): string {
  const flat = flatten(text);
  return flat.length > MAX_PART ? `${flat.slice(0, MAX_PART - 1)}…` : flat;
}

function endOf(text: string, atMost: number): string {
  const flat = flatten(text);
  return flat.length > atMost ? `…${flat.slice(-(atMost - 1)).trimStart()}` : flat;
}

/** A task's result: a shell's note, typed on the person's own command line, quotes only the output's last words. */
function describeTaskResultIn(body: string, style: WakeStyle): string {
  // Only a task's output loses its spinner frames: a person's or an agent's words keep every glyph.
  const quiet = body.replace(SPINNER_GLYPHS, ' ');
  const { outcome, tail } = splitTaskResult(quiet);
  if (style !== 'shell-note' || tail === null) return oneLine(quiet);
  return `${oneLine(outcome)} Output ends: ${endOf(tail, SHELL_TAIL_AT_MOST)}`;
}

function describe(message: InboxMessage, senders: Map<string, Agent>, style: WakeStyle): string {
  const from = message.fromAgentId ? (senders.get(message.fromAgentId)?.name ?? message.fromAgentId) : 'a person';
  switch (message.kind) {
    case 'task-result':
      return describeTaskResultIn(message.body, style);
    case 'question':
      return `Question ${message.id} from ${from}: ${oneLine(message.body)} (answer with the reply tool, question_id ${message.id})`;
    case 'reply':
      return `Reply from ${from} to your question ${message.replyTo}: ${oneLine(message.body)}`;
    case 'note':
      return `Note from ${from}: ${oneLine(message.body)}`;
  }
}

/**
 * What Drover types into an agent's prompt: one line (a newline would submit early in most agent
 * CLIs) naming the first few of the `total` pending messages (`named`, oldest first), how many
 * more there are, and where to read them in full; so a long queue is still one short line. It
 * starts with words no menu takes as an answer (no digit, no y/n), in case a dialog ever got the keys.
 */
export function composeWakeText(named: InboxMessage[], total: number, senders: Map<string, Agent>, style: WakeStyle = 'prompt'): string {
  const shown = named.slice(0, WAKE_NAMES_AT_MOST);
  const heading = total === 1 ? 'New message' : `New messages (${total})`;
  const parts = shown.map((message, i) => (total === 1 ? '' : `(${i + 1}) `) + describe(message, senders, style));
  const more = total - shown.length;
  // A shell has no MCP tools: its way to the full text is the command line.
  const [reader, has] = style === 'shell-note' ? ['drover inbox', 'shows'] : ['read_inbox', 'has'];
  const ending = more > 0 ? `and ${more} more: ${reader} ${has} them all.` : `${reader} ${has} the full text.`;
  const text = typeable(`[Drover] ${heading}: ${parts.join(' ')} — ${ending}`);
  // `true` exists in every shell; the text is one single-quoted word, so nothing in it runs.
  return style === 'shell-note' ? `true '${text.replace(/'/g, '’')}'` : text;
}
