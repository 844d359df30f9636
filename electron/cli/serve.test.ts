import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endDroverProcessesIn, startServe, type ServeProcess } from '../../test-support/droverProcess';
import { portAnswers } from '../../test-support/ports';
import { makeTempDir, removeDir } from '../../test-support/tempDir';

describe('drover serve', () => {
  let dir: string;
  let dataDir: string;
  let first: ServeProcess | undefined;

  beforeEach(() => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
  });
  afterEach(async () => {
    await first?.stop();
    first = undefined;
    await endDroverProcessesIn(dir);
    removeDir(dir);
  });

  it('a second serve of the same data dir says where the first one serves and exits 2, opening no door and keeping the token', async () => {
    first = await startServe(['--data-dir', dataDir]);
    const tokenFile = fs.readFileSync(path.join(dataDir, 'browser-token'), 'utf8');
    const outcome = await startServe(['--data-dir', dataDir, '--new-token']).then(
      async (second) => {
        await second.stopServe();
        return `served a second door at ${second.url}`;
      },
      (error: Error) => error.message,
    );
    expect(outcome).toBe(
      `drover serve exited with 2:\ndrover: Drover already serves ${dataDir} at ${new URL(first.url).origin} (another drover serve keeps that door open): open the URL that serve printed, with its token (also in browser-token in the data dir), or stop that serve first.\n`,
    );
    expect(outcome).not.toContain(new URL(first.url).searchParams.get('token') as string);
    expect(await portAnswers(Number(new URL(first.url).port))).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'browser-token'), 'utf8')).toBe(tokenFile);
  });
});
