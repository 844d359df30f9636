import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
async function restoredOf(file: string) {
  const { log, restored } = open(file);
  await log.close();
  return restored;
}
const records = async (file: string) => (await restoredOf(file)).records;

/** What every FileHandle's methods come from (the class is not exported), to watch its writes. */
async function fileHandlePrototype(file: string): Promise<FileHandle> {
  const handle = await fs.promises.open(file, 'r');
  await handle.close();
  return Object.getPrototypeOf(handle) as FileHandle;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ScrollbackLog', () => {
  it('gives back, when opened again, the output and the sizes it was drawn at, in order', async () => {
    const file = logFile();
    const { log, restored } = open(file);
    expect(restored).toEqual({ records: [], damaged: false });
    log.append('drawn at 80 columns\r\n');
    log.resize(40, 10);
    log.append('drawn at 40');
    await log.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await restoredOf(file)).toEqual({
      records: [
        { kind: 'output', data: 'drawn at 80 columns\r\n' },
        { kind: 'size', cols: 40, rows: 10 },
        { kind: 'output', data: 'drawn at 40' },
      ],
      damaged: false,
    });
  });

  it('drops the record a crash cut short and appends after the last whole one', async () => {
    const file = logFile();
    const { log } = open(file);
    log.append('whole\r\n');
    log.append('cut short');
    await log.close();
    fs.truncateSync(file, fs.statSync(file).size - 3);
    const reopened = open(file);
    expect(reopened.restored).toEqual({ records: [{ kind: 'output', data: 'whole\r\n' }], damaged: false });
    reopened.log.append('after the crash');
    await reopened.log.close();
    expect(await records(file)).toEqual([
      { kind: 'output', data: 'whole\r\n' },
      { kind: 'output', data: 'after the crash' },
    ]);
  });

  it('says a damaged file is damaged, and keeps what came before the damage', async () => {
    const file = logFile();
    const { log } = open(file);
    log.append('kept');
    log.append('lost');
    await log.close();
    const content = fs.readFileSync(file);
    // The second record's kind byte, overwritten with one no record has.
    content[content.indexOf('kept') + 4] = 0x7e;
    fs.writeFileSync(file, content);
    expect(await restoredOf(file)).toEqual({ records: [{ kind: 'output', data: 'kept' }], damaged: true });
  });

  it('turns a file of raw output from before records into one, from its last megabyte on a line start', async () => {
    const file = logFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${'old line\n'.repeat(200_000)}the last line\n`);
    const { log, restored } = open(file);
    const data = restored.records[0]?.kind === 'output' ? restored.records[0].data : '';
    expect(data.startsWith('old line\n')).toBe(true);
    expect(data.endsWith('old line\nthe last line\n')).toBe(true);
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(1024 * 1024);
    log.append('after');
    await log.close();
    expect(await records(file)).toEqual([{ kind: 'output', data }, { kind: 'output', data: 'after' }]);
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
    await log.written();
    expect((await records(file)).at(-1)).toEqual({ kind: 'size', cols: 30, rows: 8 });
    log.finishRewrite({ cols: 50, rows: 12, data: 'the screen' });
    log.append(' and on');
    await log.close();
    expect(await records(file)).toEqual([
      { kind: 'screen', cols: 50, rows: 12, data: 'the screen' },
      { kind: 'output', data: 'after the point' },
      { kind: 'size', cols: 30, rows: 8 },
      { kind: 'output', data: ' and on' },
    ]);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['scrollback.log']);
  });

  it('asks for a screen at once under a flood that leaves no quiet moment, and stays bounded', async () => {
    const file = logFile();
    let due = 0;
    const { log } = open(file, () => due++, 1000);
    for (let i = 0; i < 20; i++) log.append('y'.repeat(500));
    expect(due).toBeGreaterThan(0);
    log.beginRewrite();
    log.finishRewrite({ cols: 80, rows: 24, data: 'screen' });
    await log.written();
    await log.close();
    expect(fs.statSync(file).size).toBeLessThan(100);
  });

  it('writes the records of a moment together, in one write off the event loop, and a crash before it loses only them', async () => {
    const file = logFile();
    const { log } = open(file);
    log.append('on disk');
    await log.written();
    const writeSync = vi.spyOn(fs, 'writeSync');
    const writev = vi.spyOn(await fileHandlePrototype(file), 'writev');
    for (let batch = 0; batch < 20; batch++) log.append(`batch ${batch}\r\n`);
    log.resize(60, 20);
    // A host that died now: its file is what it was, whole.
    expect(await records(file)).toEqual([{ kind: 'output', data: 'on disk' }]);
    await log.written();
    expect(writeSync).not.toHaveBeenCalled();
    expect(writev).toHaveBeenCalledTimes(1);
    expect(await records(file)).toEqual([
      { kind: 'output', data: 'on disk' },
      ...Array.from({ length: 20 }, (_, batch) => ({ kind: 'output', data: `batch ${batch}\r\n` })),
      { kind: 'size', cols: 60, rows: 20 },
    ]);
    await log.close();
  });

  it('rewrites the file off the event loop, and what comes while it does follows the screen', async () => {
    const file = logFile();
    const { log } = open(file, () => {}, 1000);
    log.append('before the point');
    log.beginRewrite();
    log.append('after the point');
    await log.written();
    const blocking = [vi.spyOn(fs, 'writeSync'), vi.spyOn(fs, 'fsyncSync'), vi.spyOn(fs, 'renameSync'), vi.spyOn(fs, 'writeFileSync')];
    log.finishRewrite({ cols: 50, rows: 12, data: 'the screen' });
    log.append('while it is rewritten');
    log.resize(40, 10);
    // Until the new file is in place, the old one goes on whole.
    expect((await records(file))[0]).toEqual({ kind: 'output', data: 'before the point' });
    await log.written();
    log.append('then');
    await log.close();
    for (const spy of blocking) expect(spy).not.toHaveBeenCalled();
    expect(await records(file)).toEqual([
      { kind: 'screen', cols: 50, rows: 12, data: 'the screen' },
      { kind: 'output', data: 'after the point' },
      { kind: 'output', data: 'while it is rewritten' },
      { kind: 'size', cols: 40, rows: 10 },
      { kind: 'output', data: 'then' },
    ]);
  });

  it('removes the new file of a rewrite that failed, and goes on in the old one', async () => {
    const file = logFile();
    const { log } = open(file, () => {}, 1000);
    log.append('before the point');
    log.beginRewrite();
    await log.written();
    // A full disk, as far as the rename goes.
    vi.spyOn(fs.promises, 'rename').mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    log.finishRewrite({ cols: 50, rows: 12, data: 'the screen '.repeat(1000) });
    log.append('after it');
    await log.written();
    expect(fs.readdirSync(path.dirname(file))).toEqual(['scrollback.log']);
    await log.close();
    expect(await records(file)).toEqual([
      { kind: 'output', data: 'before the point' },
      { kind: 'output', data: 'after it' },
    ]);
  });

  it('writes what came during a write once that write ends, however long it took', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const file = logFile();
    const { log } = open(file);
    log.append('first');
    await log.written();
    log.append('second');
    // The moment passes: its write starts.
    vi.advanceTimersByTime(50);
    log.append('third');
    // The next moment passes while that write is still under way.
    vi.advanceTimersByTime(50);
    // Nobody asks for the file (see written): the moment after the write is what writes the rest.
    await vi.waitFor(async () =>
      expect(await records(file)).toEqual([
        { kind: 'output', data: 'first' },
        { kind: 'output', data: 'second' },
        { kind: 'output', data: 'third' },
      ]),
    );
    await log.close();
  });

  it('is rewritten past 16 MB since its screen however large the screen is', async () => {
    const file = logFile();
    let due = 0;
    const { log } = open(file, () => due++);
    log.beginRewrite();
    // A wide scrollback of 10,000 lines, serialized: 3 MB.
    log.finishRewrite({ cols: 300, rows: 50, data: 's'.repeat(3 * 1024 * 1024) });
    log.append('after the screen');
    await log.written();
    const batch = 'f'.repeat(64 * 1024);
    // Written as it comes (a flood, more than a megabyte waiting at once, would not be).
    for (let sent = 0; sent <= 16 * 1024 * 1024 && due === 0; sent += batch.length) {
      log.append(batch);
      if (sent % (512 * 1024) === 0) await log.written();
    }
    expect(due).toBe(1);
    await log.close();
  });

  it('writes none of a flood (past a megabyte at one moment) and asks for a screen of it, a second after at most when output never goes quiet', async () => {
    const file = logFile();
    let due = 0;
    const { log } = open(file, () => due++);
    log.append('before the flood');
    await log.written();
    log.append('f'.repeat(2 * 1024 * 1024));
    expect(log.missesOutput).toBe(true);
    // 16 MB more of it: the file does not grow, so no screen is asked for at once.
    for (let i = 0; i < 16; i++) log.append('f'.repeat(1024 * 1024));
    expect(due).toBe(0);
    // A line every 50 ms after it: never the quiet moment a screen waits for.
    const trickle = setInterval(() => log.append('tick\r\n'), 50);
    try {
      await waitFor(() => due === 1, 'a screen asked for', 5_000);
    } finally {
      clearInterval(trickle);
    }
    await log.written();
    expect(await records(file)).toEqual([{ kind: 'output', data: 'before the flood' }]);
    log.beginRewrite();
    log.finishRewrite({ cols: 80, rows: 24, data: 'the flood, serialized' });
    log.append('after it');
    await log.close();
    expect(log.missesOutput).toBe(false);
    expect(await records(file)).toEqual([
      { kind: 'screen', cols: 80, rows: 24, data: 'the flood, serialized' },
      { kind: 'output', data: 'after it' },
    ]);
  });

  it("keeps at most a megabyte after a screen's point while it misses output: past it, the rewritten file misses output still and asks for the next screen", async () => {
    const file = logFile();
    let due = 0;
    const { log } = open(file, () => due++);
    log.append('f'.repeat(2 * 1024 * 1024));
    await waitFor(() => due === 1, 'a screen asked for at the quiet moment');
    log.beginRewrite();
    log.append('kept after the point');
    log.append('g'.repeat(2 * 1024 * 1024));
    log.finishRewrite({ cols: 80, rows: 24, data: 'the screen' });
    await waitFor(() => due === 2, 'the next screen asked for');
    expect(log.missesOutput).toBe(true);
    expect(await records(file)).toEqual([
      { kind: 'screen', cols: 80, rows: 24, data: 'the screen' },
      { kind: 'output', data: 'kept after the point' },
    ]);
    // Closed with the terminal as it stands: the file is whole again.
    await log.close({ cols: 80, rows: 24, data: 'the last screen' });
    expect(log.missesOutput).toBe(false);
    expect(await records(file)).toEqual([{ kind: 'screen', cols: 80, rows: 24, data: 'the last screen' }]);
  });

  it('after a failed rewrite waits before it asks for a screen again, rather than at every batch of a flood', async () => {
    const file = logFile();
    let due = 0;
    const { log } = open(file, () => due++, 1000);
    const flood = (batches: number) => {
      for (let i = 0; i < batches; i++) log.append('z'.repeat(1000));
    };
    flood(8);
    expect(due).toBe(1);
    // No screen could be made.
    log.beginRewrite();
    log.finishRewrite(null);
    flood(20);
    expect(due).toBe(1);

    // A full disk, as far as the rewrite goes: its new file cannot be made.
    const second = logFile();
    let secondDue = 0;
    const other = open(second, () => secondDue++, 1000);
    fs.mkdirSync(`${second}.new`);
    for (let i = 0; i < 8; i++) other.log.append('z'.repeat(1000));
    expect(secondDue).toBe(1);
    other.log.beginRewrite();
    other.log.finishRewrite({ cols: 80, rows: 24, data: 'screen' });
    await other.log.written();
    for (let i = 0; i < 20; i++) other.log.append('z'.repeat(1000));
    expect(secondDue).toBe(1);
    // The file goes on as it was, all of it there.
    await other.log.close();
    expect(await records(second)).toHaveLength(28);
    await log.close();
  });
});
