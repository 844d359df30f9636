/**
 * The person's editor, as a command template: words split like a shell's (spaces separate, quotes
 * group, a backslash escapes), then `{file}`, `{line}` and `{column}` filled in each word. It is run
 * as that argv, never through a shell, so a file name cannot become a command.
 */

export const EDITOR_PLACEHOLDERS = ['file', 'line', 'column'] as const;
export type EditorPlace = Record<(typeof EDITOR_PLACEHOLDERS)[number], string>;

export interface EditorPreset {
  name: string;
  command: string;
}

export const EDITOR_PRESETS: readonly EditorPreset[] = [
  { name: 'VS Code', command: 'code -g {file}:{line}:{column}' },
  { name: 'Cursor', command: 'cursor -g {file}:{line}:{column}' },
  { name: 'Zed', command: 'zed {file}:{line}:{column}' },
  { name: 'JetBrains (IntelliJ IDEA)', command: 'idea --line {line} {file}' },
  { name: 'Sublime Text', command: 'subl {file}:{line}:{column}' },
  { name: 'Terminal editor ($VISUAL / $EDITOR)', command: '$EDITOR +{line} {file}' },
];

/**
 * A template whose program is this word runs the host's terminal editor ($VISUAL, else $EDITOR) in a
 * new Shell pane, in the folder of the worktree the file is in, instead of as a detached process.
 */
export const TERMINAL_EDITOR_PROGRAM = '$EDITOR';

export function isTerminalEditor(template: string): boolean {
  const parsed = parseEditorCommand(template);
  return 'program' in parsed && parsed.program === TERMINAL_EDITOR_PROGRAM;
}

export const MAX_EDITOR_COMMAND_CHARS = 2_000;

/** The template's words, or why it cannot be split (an unclosed quote, a trailing backslash). */
export function splitEditorCommand(template: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < template.length; index++) {
    const char = template[index] as string;
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (char === '\\' && (quote === null || /["\\$`]/.test(template[index + 1] ?? ''))) {
      const next = template[index + 1];
      if (next === undefined) return { error: 'ends with a backslash that escapes nothing' };
      word = (word ?? '') + next;
      index++;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote !== null) return { error: `has a ${quote === '"' ? 'double' : 'single'} quote that is never closed` };
  if (word !== null) words.push(word);
  return { words };
}

/** The template as a program and its argument words, or why it cannot open a file (it must split, name a program, and say where `{file}` goes). */
export function parseEditorCommand(template: string): { program: string; args: string[] } | { error: string } {
  const split = splitEditorCommand(template);
  if ('error' in split) return { error: `The editor command ${split.error}.` };
  const [program, ...args] = split.words;
  if (program === undefined) return { error: 'No editor is set: choose one in Settings → Editor.' };
  if (!args.some((word) => word.includes('{file}'))) return { error: 'The editor command must say where the file goes: put {file} in one of its arguments.' };
  return { program, args };
}

/** What opens `place`: the program, and each argument word of the template with its placeholders filled in (never split again). */
export function editorArgv(template: string, place: EditorPlace): { program: string; args: string[] } | { error: string } {
  const parsed = parseEditorCommand(template);
  if ('error' in parsed) return parsed;
  return { program: parsed.program, args: parsed.args.map((word) => word.replace(/\{(file|line|column)\}/g, (_match, name: keyof EditorPlace) => place[name])) };
}
