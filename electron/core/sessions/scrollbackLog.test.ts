import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScrollbackLog } from './scrollbackLog';

const dirs: string[] = [];
function logFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-scrollback-'));
  dirs.push(dir);
  return path.join(dir, 'agents', 'a-1', 'scrollback.log');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ScrollbackLog', () => {
  it('appends batches to the file and returns its tail from a line start', () => {
    const log = new ScrollbackLog(logFile(), 1024);
    log.append('first line\n');
    log.append('second line\n');
    log.flush();
    expect(fs.readFileSync(log.file, 'utf8')).toBe('first line\nsecond line\n');
    expect(log.tail(16)).toBe('second line\n');
  });

  it('stays within its cap across many batches and a flood, keeping the newest output', () => {
    const cap = 4096;
    const log = new ScrollbackLog(logFile(), cap);
    for (let batch = 0; batch < 20; batch++) {
      log.append(`batch ${batch} ${'.'.repeat(500)}\n`);
      log.flush();
      expect(fs.statSync(log.file).size).toBeLessThanOrEqual(cap);
    }
    for (let line = 0; line < 10_000; line++) log.append(`flood line ${line}\n`);
    log.flush();
    const content = fs.readFileSync(log.file, 'utf8');
    expect(content.length).toBeLessThanOrEqual(cap);
    expect(content).not.toContain('batch 19');
    expect(content.trimEnd().endsWith('flood line 9999')).toBe(true);
  });

  it('continues the same file after a restart', () => {
    const file = logFile();
    const before = new ScrollbackLog(file, 1024);
    before.append('before restart\n');
    before.flush();
    const after = new ScrollbackLog(file, 1024);
    after.append('after restart\n');
    expect(after.tail()).toBe('before restart\nafter restart\n');
  });
});
