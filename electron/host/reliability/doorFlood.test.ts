import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../test-support/buildOnce';
import { openDoorSocket } from '../../../test-support/doorSocket';
import { runCli, startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';

const IDLE_SOCKETS = path.join(REPO_ROOT, 'test-support', 'fixtures', 'idle-sockets.mjs');
/** More connections than the host has descriptors (a default login's 1,024). */
const FLOOD = 1_100;

/** Opens `count` idle connections to the port from a process of its own, with descriptors enough for them. */
async function flood(port: number, count: number): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', `ulimit -n ${count + 100} && exec "$0" "$@"`, process.execPath, IDLE_SOCKETS, String(port), String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the flood ended early (${code}): can this user have ${count + 100} descriptors?`)));
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => line === `settled ${count}` && resolve());
  });
  return child;
}

describe('a browser door flooded with idle connections', () => {
  let dir: string | undefined;
  let serve: ServeProcess | undefined;
  let flooding: ChildProcess | undefined;

  afterEach(async () => {
    flooding?.stdin?.end();
    flooding?.kill('SIGKILL');
    await serve?.stop();
    if (dir) removeDir(dir);
  });

  it("leaves the host the descriptors its local socket needs, and still lets a page in", async () => {
    dir = makeTempDir();
    const dataDir = path.join(dir, 'data');
    serve = await startServe(['--data-dir', dataDir]);
    execFileSync('prlimit', ['--pid', String(serve.hostPid()), '--nofile=1024:1024']);

    // Another user: no token, nothing sent, never closing.
    flooding = await flood(Number(new URL(serve.url).port), FLOOD);

    // The person's command, an agent's drover mcp and hooks go through the local socket.
    const status = await runCli(['--data-dir', dataDir, 'host', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Drover host: running');
    // The page of the person, who holds the token, still gets in while the flood holds.
    const page = await openDoorSocket(serve.url, { origin: new URL(serve.url).origin });
    page.close();
    expect(serve.hostAlive()).toBe(true);
  });
});
