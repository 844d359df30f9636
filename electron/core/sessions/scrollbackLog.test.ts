import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test-support/waitFor';
import { ScrollbackLog } from './scrollbackLog';

const dirs: string[] = [];
function logFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-scrollback-'));
  dirs.push(dir);
  return path.join(dir, 'agents', 'a-1', 'scrollback.log');
}

const open = (file: string, onScreenDue = () => {}, rewriteAfterBytes?: number) => ScrollbackLog.open(file, onScreenDue, rewriteAfterBytes);

/** What a rebuild would replay from the file now. */
function restoredOf(file: string) {
  const { log, restored } = open(file);
  log.close();
  return restored;
}
const records = (file: string) => restoredOf(file).records;

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ScrollbackLog', () => {
  it('gives back, when opened again, the output and the sizes it was drawn at, in order', () => {
    const file = logFile();
    const { log, restored } = open(file);
    expect(restored).toEqual({ records: [], damaged: false });
    log.append('drawn at 80 columns\r\n');
    log.resize(40, 10);
    log.append('drawn at 40');
    log.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(restoredOf(file)).toEqual({
      records: [
        { kind: 'output', data: 'drawn at 80 columns\r\n' },
        { kind: 'size', cols: 40, rows: 10 },
        { kind: 'output', data: 'drawn at 40' },
      ],
      damaged: false,
    });
  });

  it('drops the record a crash cut short and appends after the last whole one', () => {
    const file = logFile();
    const { log } = open(file);
    log.append('whole\r\n');
    log.append('cut short');
    log.close();
    fs.truncateSync(file, fs.statSync(file).size - 3);
    const reopened = open(file);
    expect(reopened.restored).toEqual({ records: [{ kind: 'output', data: 'whole\r\n' }], damaged: false });
    reopened.log.append('after the crash');
    reopened.log.close();
    expect(records(file)).toEqual([
      { kind: 'output', data: 'whole\r\n' },
      { kind: 'output', data: 'after the crash' },
    ]);
  });

  it('says a damaged file is damaged, and keeps what came before the damage', () => {
    const file = logFile();
    const { log } = open(file);
    log.append('kept');
    log.append('lost');
    log.close();
    const content = fs.readFileSync(file);
    // The second record's kind byte, overwritten with one no record has.
    content[content.indexOf('kept') + 4] = 0x7e;
    fs.writeFileSync(file, content);
    expect(restoredOf(file)).toEqual({ records: [{ kind: 'output', data: 'kept' }], damaged: true });
  });

  it('turns a file of raw output from before records into one, from its last megabyte on a line start', () => {
    const file = logFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${'old line\n'.repeat(200_000)}the last line\n`);
    const { log, restored } = open(file);
    const data = restored.records[0]?.kind === 'output' ? restored.records[0].data : '';
    expect(data.startsWith('old line\n')).toBe(true);
    expect(data.endsWith('old line\nthe last line\n')).toBe(true);
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(1024 * 1024);
    log.append('after');
    log.close();
    expect(records(file)).toEqual([{ kind: 'output', data }, { kind: 'output', data: 'after' }]);
  });

  it('once it has gathered enough, asks for a screen at a quiet moment and starts the file again from it, followed by what came after its point', async () => {
    const file = logFile();
    let due = 0;
    const { log } = open(file, () => due++, 1000);
    log.append('x'.repeat(1200));
    expect(due).toBe(0);
    await waitFor(() => due === 1, 'a quiet moment');
    log.beginRewrite();
    log.append('after the point');
    log.resize(30, 8);
    // Until the screen is there, the file as it was goes on: a crash now loses nothing.
    expect(records(file).at(-1)).toEqual({ kind: 'size', cols: 30, rows: 8 });
    log.finishRewrite({ cols: 50, rows: 12, data: 'the screen' });
    log.append(' and on');
    log.close();
    expect(records(file)).toEqual([
      { kind: 'screen', cols: 50, rows: 12, data: 'the screen' },
      { kind: 'output', data: 'after the point' },
      { kind: 'size', cols: 30, rows: 8 },
      { kind: 'output', data: ' and on' },
    ]);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['scrollback.log']);
  });

  it('asks for a screen at once under a flood that leaves no quiet moment, and stays bounded', () => {
    const file = logFile();
    let due = 0;
    const { log } = open(file, () => due++, 1000);
    for (let i = 0; i < 20; i++) log.append('y'.repeat(500));
    expect(due).toBeGreaterThan(0);
    log.beginRewrite();
    log.finishRewrite({ cols: 80, rows: 24, data: 'screen' });
    log.close();
    expect(fs.statSync(file).size).toBeLessThan(100);
  });
});
