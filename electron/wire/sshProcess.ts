import { spawn } from 'node:child_process';
import { sshArgs, type SshClient, type SshEnd, type SshLauncher } from '../../shared/machines';

/** Enough of ssh's stderr to hold its reason and the remote's last words. */
const STDERR_TAIL_CHARS = 16_384;

/**
 * Runs the person's own ssh client (with `BatchMode`, see `sshArgs`): what both a command on a
 * machine (probe, install) and a bridge to its host start.
 */
export function sshLauncher(ssh: SshClient): SshLauncher {
  return (machine, remoteCommand) => {
    const child = spawn(ssh.command, [...ssh.args, ...sshArgs(machine, remoteCommand)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)));
    // A remote that ends before reading all its input has its answer in its exit code, not in this error.
    child.stdin.on('error', () => undefined);
    const ended = new Promise<SshEnd>((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) =>
        resolve({
          notRun: error.code === 'ENOENT' ? `Drover needs the OpenSSH client (${ssh.command}) to reach other machines; install it (e.g. apt install openssh-client).` : `Cannot run ${ssh.command}: ${error.message}`,
        }),
      );
      child.once('close', (code) => resolve({ code: code ?? 1, stderr }));
    });
    return { stdin: child.stdin, stdout: child.stdout, ended };
  };
}
