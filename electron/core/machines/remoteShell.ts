import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { sshArgs, sshFailure, type Machine, type SshClient } from '../../../shared/machines';
import { DroverRequestError } from '../../../shared/protocol';

export interface RemoteRun {
  stdout: string;
  stderr: string;
  code: number;
}

const OUTPUT_LIMIT = 1024 * 1024;

/**
 * Runs one shell command on a machine over ssh, feeding it `input` when given. A connection that
 * fails (ssh's exit 255) is refused with ssh's reason in plain words; the command's own exit code
 * is the caller's to read.
 */
export function runRemote(ssh: SshClient, machine: Pick<Machine, 'destination' | 'port'>, command: string, input?: Readable): Promise<RemoteRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(ssh.command, [...ssh.args, ...sshArgs(machine, command)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)));
    // The remote may end before reading all of its input (a failed check): that is its answer, not an error.
    child.stdin.on('error', () => undefined);
    if (input) input.pipe(child.stdin);
    else child.stdin.end();
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new DroverRequestError('spawn-failed', error.code === 'ENOENT' ? `Drover needs the OpenSSH client (${ssh.command}) to reach other machines; install it (e.g. apt install openssh-client).` : `Cannot run ${ssh.command}: ${error.message}`)),
    );
    child.once('close', (code) => {
      if (code === 255) reject(new DroverRequestError('invalid-state', sshFailure(machine.destination, stderr)));
      else resolve({ stdout, stderr, code: code ?? 1 });
    });
  });
}
