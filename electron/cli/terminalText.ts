/**
 * Text from the work state that the CLI prints for people (project names and folders, labels,
 * commands, agent and file names) may hold control characters, which a terminal acts on: OSC 52
 * writes the clipboard, `ESC [2J` clears the screen, a newline forges a row. They are printed
 * escaped instead, in the C style git uses for file names (`"a\033[2Jb"`). `--json` output stays
 * JSON, which escapes them itself.
 */

/** C0 and C1 controls, DEL, and the bidirectional overrides and isolates that reorder what is shown. */
// eslint-disable-next-line no-control-regex -- these are the characters to escape
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
/** The same but for line feeds and tabs, which text of several lines keeps. */
// eslint-disable-next-line no-control-regex -- these are the characters to escape
const UNSAFE_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\u0007': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\u000b': '\\v', '\f': '\\f', '\r': '\\r' };

/** As git writes a byte it quotes: a named escape, else three octal digits per UTF-8 byte. */
function escapeCharacter(character: string): string {
  return NAMED[character] ?? [...Buffer.from(character, 'utf8')].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
}

/** A value (a name, a path, a command) as a person may safely see it: quoted and escaped only where it needs to be. */
export function quoted(value: string): string {
  // A value that starts with a quote is quoted too, so a quoted form is never mistaken for a plain one.
  if (!UNSAFE.test(value) && !value.startsWith('"')) return value;
  return `"${value.replace(/["\\]/g, '\\$&').replace(UNSAFE_ALL, escapeCharacter)}"`;
}

/** A message that embeds such values (an error): its control characters escaped in place. */
export function withoutControls(message: string): string {
  return message.replace(UNSAFE_ALL, escapeCharacter);
}

/** Text of several lines (a message's body): its line feeds and tabs kept, every other control character escaped in place. */
export function withLinesOnly(text: string): string {
  return text.replace(UNSAFE_BUT_LINES, escapeCharacter);
}

/** Columns padded to their widest cell; every cell is quoted where it holds control characters. */
export function table(cells: string[][]): string {
  const rows = cells.map((row) => row.map(quoted));
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ')).join('\n');
}
