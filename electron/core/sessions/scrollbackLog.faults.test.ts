import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScrollbackLog } from './scrollbackLog';

/**
 * Faults a test cannot make the system produce on demand, at the moment they matter: a host that runs
 * out of file descriptors just as a rewrite has renamed its new file over the old one.
 */
const descriptors = vi.hoisted(() => ({ runOutAfterRename: false, exhausted: false }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const outOfDescriptors = () => Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
  const open = (...args: unknown[]): void => {
    if (!descriptors.exhausted) return (real.open as (...openArgs: unknown[]) => void)(...args);
    process.nextTick(args.at(-1) as (error: Error) => void, outOfDescriptors());
  };
  const openHandle = (...args: Parameters<typeof real.promises.open>) =>
    descriptors.exhausted ? Promise.reject(outOfDescriptors()) : real.promises.open(...args);
  const rename = async (...args: Parameters<typeof real.promises.rename>) => {
    await real.promises.rename(...args);
    if (descriptors.runOutAfterRename) descriptors.exhausted = true;
  };
  const mocked = { ...real, open, promises: { ...real.promises, open: openHandle, rename } };
  return { ...mocked, default: mocked };
});

const dirs: string[] = [];
function logFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-scrollback-'));
  dirs.push(dir);
  return path.join(dir, 'scrollback.log');
}

async function records(file: string) {
  const { log, restored } = ScrollbackLog.open(file, () => {});
  await log.close();
  return restored.records;
}

afterEach(() => {
  descriptors.runOutAfterRename = false;
  descriptors.exhausted = false;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ScrollbackLog, when the host runs out of file descriptors', () => {
  it('goes on in the file it was rewritten as: after the rename there is nothing left to open', async () => {
    const file = logFile();
    const { log } = ScrollbackLog.open(file, () => {}, 1000);
    log.append('before the point');
    log.beginRewrite();
    await log.written();
    descriptors.runOutAfterRename = true;
    log.finishRewrite({ cols: 50, rows: 12, data: 'the screen' });
    log.append('while it is rewritten');
    await log.written();
    log.append('after it');
    await log.written();
    descriptors.exhausted = false;
    // What the log said is on disk is in the file a rebuild reads.
    expect(await records(file)).toEqual([
      { kind: 'screen', cols: 50, rows: 12, data: 'the screen' },
      { kind: 'output', data: 'while it is rewritten' },
      { kind: 'output', data: 'after it' },
    ]);
    await log.close();
  });
});
