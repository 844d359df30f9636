import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, portAnswers } from './ports';
import { makeTempDir, removeDir } from './tempDir';
import { waitFor } from './waitFor';

/** sshd needs root to log in as another user; the tests that need one skip without it. */
export const CAN_RUN_SSHD = process.getuid?.() === 0 && ['/usr/sbin/sshd', '/usr/bin/ssh', '/usr/sbin/useradd'].every((file) => fs.existsSync(file));
/** Why a test of another machine skipped. */
export const SSHD_REQUIREMENT = "needs root, OpenSSH's sshd and ssh client (openssh-server, openssh-client) and useradd, to run a real sshd with a throwaway user as the remote";

/** A real OpenSSH server on 127.0.0.1 with a throwaway local user as "the remote". */
export interface SshRemote {
  user: string;
  home: string;
  port: number;
  /** The `Host` alias of `sshConfig` that logs in as `user`. */
  alias: string;
  /** An ssh client config of the test's own (its key, its known_hosts): never the machine's ~/.ssh. */
  sshConfig: string;
  /** DROVER_SSH_COMMAND that makes Drover's ssh use it. */
  sshCommand: string;
  /** Runs a command as the remote user over the same ssh. */
  ssh(command: string): string;
  /** Gives the remote user what a test wrote into its home as root. */
  chownHome(): void;
  /** A config of the same server whose known_hosts lacks its key, and one with a key it refuses. */
  variant(kind: 'unknown-host-key' | 'refused-key' | 'closed-port'): string;
  stop(): Promise<void>;
}

const HOST_KEY_ALIAS = 'drover-test-remote';

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'drover-test', '-f', file]);
}

function clientConfig(dir: string, name: string, lines: Record<string, string>): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `Host *\n${Object.entries(lines).map(([key, value]) => `  ${key} ${value}`).join('\n')}\n`, { mode: 0o600 });
  return file;
}

export async function startSshRemote(): Promise<SshRemote> {
  const dir = makeTempDir('drover-sshd-');
  const user = `drover-rt-${randomBytes(3).toString('hex')}`;
  // Its home straight under /tmp: sshd's StrictModes wants every folder above it root-owned and not group-writable.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `${user}-home-`));
  execFileSync('useradd', ['-M', '-d', home, '-s', '/bin/sh', user]);
  // With UsePAM no, a user without a password is locked out unless its password field is '*'.
  execFileSync('usermod', ['-p', '*', user]);
  keygen(path.join(dir, 'host_key'));
  keygen(path.join(dir, 'client_key'));
  keygen(path.join(dir, 'stranger_key'));
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
  fs.copyFileSync(path.join(dir, 'client_key.pub'), path.join(home, '.ssh', 'authorized_keys'));
  fs.chmodSync(path.join(home, '.ssh', 'authorized_keys'), 0o600);
  fs.chmodSync(home, 0o755);
  execFileSync('chown', ['-R', `${user}:${user}`, home]);
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

  const port = await freePort();
  const sshdConfig = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    sshdConfig,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'AuthorizedKeysFile .ssh/authorized_keys',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'PermitRootLogin no',
      `AllowUsers ${user}`,
      'StrictModes yes',
      'LogLevel INFO',
    ].join('\n') + '\n',
  );
  const sshd: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', sshdConfig], { stdio: ['ignore', 'ignore', 'pipe'] });
  let sshdLog = '';
  sshd.stderr?.on('data', (chunk: Buffer) => (sshdLog += chunk.toString('utf8')));
  try {
    await waitFor(() => portAnswers(port), `sshd to answer on 127.0.0.1:${port}`);
  } catch (error) {
    throw new Error(`${(error as Error).message}; sshd said: ${sshdLog}`, { cause: error });
  }

  const hostKey = fs.readFileSync(path.join(dir, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
  // Known by an alias, not by address and port: a proxy in front of it (another port) is the same host.
  fs.writeFileSync(path.join(dir, 'known_hosts'), `${HOST_KEY_ALIAS} ${hostKey}\n`);
  fs.writeFileSync(path.join(dir, 'empty_known_hosts'), '');
  const base = {
    HostName: '127.0.0.1',
    HostKeyAlias: HOST_KEY_ALIAS,
    Port: String(port),
    User: user,
    IdentitiesOnly: 'yes',
    IdentityFile: path.join(dir, 'client_key'),
    UserKnownHostsFile: path.join(dir, 'known_hosts'),
    GlobalKnownHostsFile: '/dev/null',
    StrictHostKeyChecking: 'yes',
    IdentityAgent: 'none',
    ConnectTimeout: '10',
  };
  const sshConfig = clientConfig(dir, 'ssh_config', base);
  const variants = {
    'unknown-host-key': { ...base, UserKnownHostsFile: path.join(dir, 'empty_known_hosts') },
    'refused-key': { ...base, IdentityFile: path.join(dir, 'stranger_key') },
    'closed-port': { ...base, Port: String(await freePort()) },
  };
  return {
    user,
    home,
    port,
    alias: 'remote',
    sshConfig,
    sshCommand: `ssh -F ${sshConfig}`,
    ssh: (command) => execFileSync('ssh', ['-F', sshConfig, '-o', 'BatchMode=yes', 'remote', command], { encoding: 'utf8' }),
    chownHome: () => execFileSync('chown', ['-R', `${user}:${user}`, home]),
    variant: (kind) => `ssh -F ${clientConfig(dir, `ssh_config_${kind}`, variants[kind])}`,
    stop: async () => {
      sshd.kill('SIGTERM');
      // Whatever the remote user still runs (its Drover host, agents, tasks) goes with it, again on
      // each look: a session sshd had already accepted can still start a bridge, which starts a host.
      await waitFor(() => {
        try {
          execFileSync('pkill', ['-KILL', '-u', user]);
        } catch {
          // Nothing of its was running.
        }
        try {
          execFileSync('pgrep', ['-u', user]);
          return false;
        } catch {
          return true;
        }
      }, `the processes of ${user} to end`);
      execFileSync('userdel', [user]);
      removeDir(home);
      removeDir(dir);
    },
  };
}
