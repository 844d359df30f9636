import { describe, expect, it } from 'vitest';
import { editorArgv, EDITOR_PRESETS, isTerminalEditor, parseEditorCommand, splitEditorCommand } from './editor';

const place = { file: '/work/a b/it\'s "x".ts', line: '12', column: '3' };

describe('the editor command', () => {
  it('splits into words as a shell would: spaces separate, quotes group, a backslash escapes', () => {
    expect(splitEditorCommand('  code   -g {file}:{line} ')).toEqual({ words: ['code', '-g', '{file}:{line}'] });
    expect(splitEditorCommand(`"/opt/My Editor/bin/ed" --goto '{file}' a\\ b "say \\"hi\\" \\n" ''`)).toEqual({
      words: ['/opt/My Editor/bin/ed', '--goto', '{file}', 'a b', 'say "hi" \\n', ''],
    });
  });

  it('fills the placeholders inside each argument, so a file name with spaces, quotes or a ; stays one argument', () => {
    expect(editorArgv('code -g {file}:{line}:{column}', place)).toEqual({ program: 'code', args: ['-g', `${place.file}:12:3`] });
    expect(editorArgv('idea --line {line} {file}', { ...place, file: '/p/x; rm -rf ~' })).toEqual({ program: 'idea', args: ['--line', '12', '/p/x; rm -rf ~'] });
    expect(editorArgv('ed {file} {nothing}', place)).toEqual({ program: 'ed', args: [place.file, '{nothing}'] });
  });

  it('gives every preset as a program and arguments with the file in them', () => {
    for (const preset of EDITOR_PRESETS) expect(parseEditorCommand(preset.command)).not.toHaveProperty('error');
  });

  it('tells a terminal editor by its $EDITOR program, and only by that', () => {
    expect(EDITOR_PRESETS.filter((preset) => isTerminalEditor(preset.command)).map((preset) => preset.name)).toEqual(['Terminal editor ($VISUAL / $EDITOR)']);
    expect(isTerminalEditor('$EDITOR {file}')).toBe(true);
    expect(isTerminalEditor('vim $EDITOR {file}')).toBe(false);
    expect(isTerminalEditor('$EDITOR')).toBe(false);
  });

  it('refuses, in words, a command that is empty, cannot be split, or does not say where the file goes', () => {
    expect(parseEditorCommand('')).toEqual({ error: 'No editor is set: choose one in Settings → Editor.' });
    expect(parseEditorCommand('code -g "{file}')).toEqual({ error: 'The editor command has a double quote that is never closed.' });
    expect(parseEditorCommand("code '{file}")).toEqual({ error: 'The editor command has a single quote that is never closed.' });
    expect(parseEditorCommand('code {file} \\')).toEqual({ error: 'The editor command ends with a backslash that escapes nothing.' });
    expect(parseEditorCommand('code -g')).toEqual({ error: 'The editor command must say where the file goes: put {file} in one of its arguments.' });
    expect(parseEditorCommand('{file}')).toEqual({ error: 'The editor command must say where the file goes: put {file} in one of its arguments.' });
  });
});
