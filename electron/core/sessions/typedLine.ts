/** Bracketed paste around pasted text (a shell that asked for it takes it as typed, newlines included). */
const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';

/** What a submitted line was: its text as typed, or unknown when keys other than typing shaped it. */
export type SubmittedLine = { text: string } | { text: null };

/** The length of the escape sequence at `at` (CSI, SS3, or ESC and one character). */
function escapeLength(data: string, at: number): number {
  const next = data[at + 1];
  if (next === '[') {
    let end = at + 2;
    while (end < data.length && !/[\u0040-\u007e]/.test(data[end] as string)) end++;
    return end - at + 1;
  }
  return next === undefined ? 1 : next === 'O' ? 3 : 2;
}

/**
 * Follows the keys a person sends a shell to tell the command each Enter runs, to name a shell's
 * turn. Typing, Backspace, Ctrl-U and Ctrl-W are followed; a key that lets the shell change the
 * line itself (history, completion, cursor moves) makes the line unknown until the next Enter.
 */
export class TypedLine {
  private text = '';
  private exact = true;
  private pasting = false;

  /** Feeds keys; returns each line they submitted, in order (an empty line submits nothing). */
  feed(data: string): SubmittedLine[] {
    const submitted: SubmittedLine[] = [];
    for (let at = 0; at < data.length; ) {
      if (data.startsWith(PASTE_START, at) || data.startsWith(PASTE_END, at)) {
        this.pasting = data.startsWith(PASTE_START, at);
        at += PASTE_START.length;
        continue;
      }
      const char = data[at] as string;
      if (char === '\u001b') {
        this.exact = false;
        at += escapeLength(data, at);
        continue;
      }
      at++;
      const newline = char === '\r' || char === '\n';
      if (newline && this.pasting) this.text += '\n';
      else if (newline) {
        const line = this.exact ? this.text.trim() : null;
        if (line !== '') submitted.push({ text: line });
        this.reset();
      } else if (char === '\u007f' || char === '\b') this.text = [...this.text].slice(0, -1).join('');
      else if (char === '\u0015') this.text = '';
      else if (char === '\u0017') this.text = this.text.replace(/\S+\s*$/, '');
      else if (char === '\u0003') this.reset();
      else if (char < ' ') this.exact = false;
      else this.text += char;
    }
    return submitted;
  }

  /** Nothing has been typed since the last line was submitted (or cleared): the next key begins a line. */
  get atLineStart(): boolean {
    return this.text === '' && this.exact && !this.pasting;
  }

  private reset(): void {
    this.text = '';
    this.exact = true;
  }
}
