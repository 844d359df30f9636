import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../../test-support/buildOnce';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { refreshCommandLineTool } from '../core/commandLineTool/commandLineTool';
import { startHost, type DroverHost } from '../host/host';

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 20_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

describe('the drover that Install command line tool writes', () => {
  let dir: string;
  let home: string;
  let dataDir: string;
  let host: DroverHost;

  beforeEach(async () => {
    dir = makeTempDir();
    home = path.join(dir, 'home');
    fs.mkdirSync(home);
    // A data dir given with --data-dir, whose name a shell would otherwise take apart.
    dataDir = path.join(dir, "it's {data}");
    host = await startHost({ dataDir, version: 'launcher-test', env: { ...process.env, HOME: home }, cliCommand: [process.execPath, CLI_PATH] });
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('reaches the Drover it was installed from, one started with --data-dir too; a DROVER_DATA_DIR or --data-dir of the caller wins', async () => {
    const { path: launcher } = await host.core.api.installCommandLineTool({});
    expect(launcher).toBe(path.join(home, '.local', 'bin', 'drover'));
    const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const status = await run(launcher, ['status', '--json'], env);
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout)).toMatchObject({ version: 'launcher-test', dataDir });
    const elsewhere = path.join(dir, 'elsewhere');
    expect(await run(launcher, ['status'], { ...env, DROVER_DATA_DIR: elsewhere })).toMatchObject({ code: 1, stderr: expect.stringContaining('Drover is not running') });
    expect(await run(launcher, ['--data-dir', elsewhere, 'status'], env)).toMatchObject({ code: 1, stderr: expect.stringContaining('Drover is not running') });

    // An AppImage that moved gets its launcher rewritten for its new path, still reaching the same data dir.
    expect(refreshCommandLineTool({ kind: 'launcher', command: [process.execPath, CLI_PATH], env: { DROVER_MOVED: '1' } }, { HOME: home })).toBe(true);
    expect(fs.readFileSync(launcher, 'utf8')).toContain("DROVER_MOVED='1' exec");
    expect(JSON.parse((await run(launcher, ['status', '--json'], env)).stdout)).toMatchObject({ dataDir });
  });
});
