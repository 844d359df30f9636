import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runRemote } from '../core/machines/remoteShell';
import { spawnSshBridge } from './sshRelay';
import { sshLauncher } from './sshProcess';

const machine = { destination: 'box', port: null, hostVersion: '0.1.0' };
/** A stand-in for ssh that runs `script` and ignores the arguments Drover gives ssh. */
const standIn = (script: string) => sshLauncher({ command: 'sh', args: ['-c', script] });

describe('the ssh launcher, as a command on a machine and a bridge read it', () => {
  it('says how to get ssh when there is none', async () => {
    const missing = sshLauncher({ command: 'drover-no-such-ssh', args: [] });
    await expect(runRemote(missing, machine, 'true')).rejects.toMatchObject({ code: 'spawn-failed', message: expect.stringContaining('Drover needs the OpenSSH client (drover-no-such-ssh)') });
    expect(await spawnSshBridge(missing, machine).ended).toContain('Drover needs the OpenSSH client');
  });

  it("turns ssh's own failure (exit 255) into its reason in plain words, for both", async () => {
    const refused = standIn('echo "me@box: Permission denied (publickey)." >&2; exit 255');
    await expect(runRemote(refused, machine, 'true')).rejects.toMatchObject({ code: 'invalid-state', message: expect.stringContaining('Cannot connect to box: it refused the login') });
    expect(await spawnSshBridge(refused, machine).ended).toContain('Cannot connect to box: it refused the login');
  });

  it("hands a command's own exit code, output and input back; a bridge that ends cleanly has no reason", async () => {
    const echo = standIn('cat; echo oops >&2; exit 3');
    expect(await runRemote(echo, machine, 'ignored', Readable.from(['fed in']))).toEqual({ stdout: 'fed in', stderr: 'oops\n', code: 3 });
    expect(await spawnSshBridge(standIn('exit 0'), machine).ended).toBeNull();
  });
});
