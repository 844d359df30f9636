/** A key a phone's keyboard lacks, for answering an agent's dialogs, menus and prompts. */
export interface ExtraKey {
  key: 'Escape' | 'Tab' | 'Control' | 'ArrowLeft' | 'ArrowUp' | 'ArrowDown' | 'ArrowRight' | 'Enter';
  /** What the button shows. */
  label: string;
  /** What it is called (a screen reader's, and a test's, name). */
  name: string;
}

export const EXTRA_KEYS: readonly ExtraKey[] = [
  { key: 'Escape', label: 'Esc', name: 'Esc' },
  { key: 'Tab', label: 'Tab', name: 'Tab' },
  { key: 'Control', label: 'Ctrl', name: 'Ctrl' },
  { key: 'ArrowLeft', label: '←', name: 'Left' },
  { key: 'ArrowUp', label: '↑', name: 'Up' },
  { key: 'ArrowDown', label: '↓', name: 'Down' },
  { key: 'ArrowRight', label: '→', name: 'Right' },
  { key: 'Enter', label: '⏎', name: 'Enter' },
];

const ARROW_FINALS: Readonly<Record<string, string>> = { ArrowUp: 'A', ArrowDown: 'B', ArrowRight: 'C', ArrowLeft: 'D' };

/**
 * What the key sends to the program, as xterm sends it for the real key: arrows as the program
 * asked for them (application cursor keys, DECCKM, as full-screen CLIs turn on, or normal).
 * Control sends nothing: it applies to the next character typed (withControl).
 */
export function extraKeyData(key: ExtraKey['key'], applicationCursorKeys: boolean): string {
  switch (key) {
    case 'Escape':
      return '\u001b';
    case 'Tab':
      return '\t';
    case 'Enter':
      return '\r';
    case 'Control':
      return '';
    default:
      return `\u001b${applicationCursorKeys ? 'O' : '['}${ARROW_FINALS[key] ?? ''}`;
  }
}

/** One character typed with Control held: a letter or @ [ \ ] ^ _ becomes its control character; anything else is sent as it is. */
export function withControl(data: string): string {
  if (data.length !== 1) return data;
  const code = data.toUpperCase().charCodeAt(0);
  return code >= 0x40 && code <= 0x5f ? String.fromCharCode(code & 0x1f) : data;
}
