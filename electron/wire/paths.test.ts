import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endDroverProcessesIn, runCli } from '../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../test-support/tempDir';

const NOBODY = 65534;

describe("a long data dir's socket", () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;

  beforeEach(() => {
    dir = makeTempDir();
    // Past the socket path's limit: the socket has to live elsewhere.
    dataDir = path.join(dir, 'a-data-dir-whose-path-is-long-enough'.repeat(3));
    const home = path.join(dir, 'home');
    const tmp = path.join(dir, 'tmp');
    fs.mkdirSync(home);
    fs.mkdirSync(tmp, { mode: 0o1777 });
    const { XDG_RUNTIME_DIR: _runtime, XDG_CACHE_HOME: _cache, ...rest } = process.env;
    env = { ...rest, HOME: home, TMPDIR: tmp };
  });
  afterEach(async () => {
    await runCli(['--data-dir', dataDir, 'host', 'stop', '--force'], { env });
    await endDroverProcessesIn(dir);
    removeDir(dir);
  });

  it("goes in the person's own folder, so another user who made Drover's old folder in the temp dir first cannot keep the host from starting", async (context) => {
    if (process.getuid?.() !== 0) {
      context.skip('needs root to make a folder as another user (CI runs as root)');
      return;
    }
    const squatted = path.join(dir, 'tmp', `drover-${os.userInfo().uid}`);
    fs.mkdirSync(squatted, { mode: 0o777 });
    fs.chownSync(squatted, NOBODY, NOBODY);

    const started = await runCli(['--data-dir', dataDir, 'host', 'start'], { env });
    expect(started.code, started.stderr).toBe(0);
    const status = await runCli(['--data-dir', dataDir, 'host', 'status', '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
    const socketPath = (JSON.parse(status.stdout) as { socketPath: string }).socketPath;
    expect(path.dirname(socketPath)).toBe(path.join(dir, 'home', '.cache', 'drover', 'sockets'));
    expect(fs.statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(squatted)).toEqual([]);
  });

  it('says plainly when no private folder is short enough', async () => {
    const longHome = path.join(dir, 'a-home-folder-whose-path-is-long-enough'.repeat(3));
    fs.mkdirSync(longHome);
    const result = await runCli(['--data-dir', dataDir, 'host', 'start'], { env: { ...env, HOME: longHome } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`The data dir ${dataDir} is too long a path for Drover's socket`);
    expect(result.stderr).toContain('use a shorter --data-dir, or set XDG_RUNTIME_DIR');
  });
});
