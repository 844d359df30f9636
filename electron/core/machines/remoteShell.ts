import { sshFailure, type Machine, type SshLauncher } from '../../../shared/machines';
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
export async function runRemote(launch: SshLauncher, machine: Pick<Machine, 'destination' | 'port'>, command: string, input?: NodeJS.ReadableStream): Promise<RemoteRun> {
  const ssh = launch(machine, command);
  let stdout = '';
  ssh.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)));
  if (input) input.pipe(ssh.stdin);
  else ssh.stdin.end();
  const end = await ssh.ended;
  if ('notRun' in end) throw new DroverRequestError('spawn-failed', end.notRun);
  if (end.code === 255) throw new DroverRequestError('invalid-state', sshFailure(machine.destination, end.stderr));
  return { stdout, stderr: end.stderr, code: end.code };
}

/** The end of what a remote command said, for an error message. */
export function lastWords(text: string): string {
  return text.trim().split('\n').slice(-3).join(' ') || 'it said nothing';
}
