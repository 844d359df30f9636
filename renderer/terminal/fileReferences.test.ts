import { describe, expect, it } from 'vitest';
import { findFileReferences } from './fileReferences';

const files = (text: string) => findFileReferences(text).map(({ file, line, column }) => [file, line, column]);

describe('file references in output', () => {
  it('finds path:line and path:line:column, relative or absolute, where they stand in the line', () => {
    expect(findFileReferences('src/cart.ts:12:5 - error TS2322')).toEqual([{ start: 0, end: 16, file: 'src/cart.ts', line: 12, column: 5 }]);
    expect(files('  at total (/home/me/shop/lib/cart.js:40:13)')).toEqual([['/home/me/shop/lib/cart.js', 40, 13]]);
    expect(files('FAIL ../tests/cart.test.ts:7 and ./main.py:3:')).toEqual([
      ['../tests/cart.test.ts', 7, undefined],
      ['./main.py', 3, undefined],
    ]);
    expect(files('README.md:1')).toEqual([['README.md', 1, undefined]]);
  });

  it('leaves alone what is not a file: ports, clock times, URLs, line 0', () => {
    expect(files('listening on localhost:8080 at 12:30:01')).toEqual([]);
    expect(files('see https://example.com/docs/page.html:80 or http://host:3000/a.ts:4')).toEqual([]);
    expect(files('cart.ts:0')).toEqual([]);
  });
});
