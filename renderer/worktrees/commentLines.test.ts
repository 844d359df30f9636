import { describe, expect, it } from 'vitest';
import { firstChangedLine, quotedLines } from './commentLines';

const PATCH = [
  'diff --git a/app.ts b/app.ts',
  '--- a/app.ts',
  '+++ b/app.ts',
  '@@ -1,4 +1,5 @@',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 20;',
  '+const c = 30;',
  ' const d = 4;',
  ' const e = 5;',
  '@@ -10,2 +11,2 @@ function tail() {',
  '-  return a;',
  '+  return b;',
  '   }',
  '',
].join('\n');

describe('the lines a diff comment quotes', () => {
  it('takes the new side’s lines (context and added) by the new file’s numbers', () => {
    expect(quotedLines(PATCH, 'new', 2, 3)).toBe('const b = 20;\nconst c = 30;\n');
    expect(quotedLines(PATCH, 'new', 1, 4)).toBe('const a = 1;\nconst b = 20;\nconst c = 30;\nconst d = 4;\n');
    expect(quotedLines(PATCH, 'new', 11, 11)).toBe('  return b;\n');
  });

  it('takes the old side’s lines (context and removed) by the old file’s numbers', () => {
    expect(quotedLines(PATCH, 'old', 2, 2)).toBe('const b = 2;\n');
    expect(quotedLines(PATCH, 'old', 10, 11)).toBe('  return a;\n  }\n');
  });

  it('leaves out lines the diff does not show', () => {
    expect(quotedLines(PATCH, 'new', 5, 10)).toBe('const e = 5;\n');
    expect(quotedLines(null, 'new', 1, 2)).toBe('');
  });

  it('finds the first changed line of a side', () => {
    expect(firstChangedLine(PATCH, 'new')).toBe(2);
    expect(firstChangedLine(PATCH, 'old')).toBe(2);
    expect(firstChangedLine('diff --git a/x b/x\nBinary files differ\n', 'new')).toBeNull();
  });
});
