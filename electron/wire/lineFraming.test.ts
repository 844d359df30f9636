import { describe, expect, it } from 'vitest';
import { LineReader } from './lineFraming';

function reader(maxLineBytes: number) {
  const lines: string[] = [];
  let oversized = 0;
  const lineReader = new LineReader(maxLineBytes, (line) => lines.push(line.toString('utf8')), () => oversized++);
  return { lines, oversized: () => oversized, push: (chunk: string | Buffer) => lineReader.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)) };
}

describe('LineReader', () => {
  it('splits lines across chunks, also inside a multi-byte character, and skips blank lines', () => {
    const r = reader(1024);
    const euro = Buffer.from('{"a":"€"}\n');
    r.push(euro.subarray(0, 7));
    r.push(Buffer.concat([euro.subarray(7), Buffer.from('\r\n  \n{"b":1}\n{"c"')]));
    r.push(':2}\n');
    expect(r.lines).toEqual(['{"a":"€"}', '{"b":1}', '{"c":2}']);
  });

  it('reports a line as soon as it passes the limit, skips the rest of it, and reads the next', () => {
    const r = reader(10);
    r.push('0123456789');
    expect(r.oversized()).toBe(0);
    r.push('abc');
    // Reported before the line's newline arrived: nothing of it is kept meanwhile.
    expect(r.oversized()).toBe(1);
    r.push('x'.repeat(1000));
    r.push('yyy\n{"ok":1}\n');
    expect(r.oversized()).toBe(1);
    expect(r.lines).toEqual(['{"ok":1}']);
    r.push(`${'z'.repeat(11)}\nshort\n`);
    expect(r.oversized()).toBe(2);
    expect(r.lines).toEqual(['{"ok":1}', 'short']);
  });

  it('scans each byte once: a 16 MB line in 64 KB chunks reads as one line', () => {
    const r = reader(32 * 1024 * 1024);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    for (let i = 0; i < 256; i++) r.push(chunk);
    r.push('\n');
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toHaveLength(16 * 1024 * 1024);
  });
});
