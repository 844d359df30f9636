import { z } from 'zod';
import { RunningWorkSchema } from './host';

/** A machine's short name, as the person types it after `--machine`. */
export const MachineNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/, 'a machine name is 1–40 lowercase letters, digits, dots, dashes or underscores, starting with a letter or digit');

/**
 * Where ssh goes: `user@host`, `host` or a `Host` alias of the person's ssh config. Never starting
 * with `-`, so it cannot be read as an ssh option (`-oProxyCommand=…` would run a command), and
 * without a shell's special characters, which an ssh before 9.6 passes to a local shell through a
 * config's `ProxyCommand … %h`.
 */
export const SshDestinationSchema = z
  .string()
  .min(1, 'an SSH destination is needed (user@host, host, or a Host alias of ~/.ssh/config)')
  .max(255)
  .regex(/^[^-\s`$;&|<>(){}'"\\*?!#~][^\s`$;&|<>(){}'"\\*?!#~]*$/, 'an SSH destination does not start with "-" and has no spaces or shell characters ($ ; | & ` and the like)');

export const SshPortSchema = z.number().int().min(1).max(65_535);

/** A port as typed (`2222`), or null for anything else (`0x10`, `1e3`, `70000`). */
export function portFromText(text: string): number | null {
  const port = /^\d{1,5}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  return SshPortSchema.safeParse(port).success ? port : null;
}

export const MachineSchema = z.object({
  name: MachineNameSchema,
  destination: SshDestinationSchema,
  port: SshPortSchema.nullable(),
  addedAt: z.number().int(),
  /** The Drover version installed there and the remote's Node, as found when it was added. */
  hostVersion: z.string(),
  remoteNode: z.string(),
});
export type Machine = z.infer<typeof MachineSchema>;

/**
 * The host running on a machine now, as `drover host status` there says: it may be of an older
 * Drover (it outlives the Drover that started it), whose protocol a page of this one cannot speak.
 */
export const MachineHostSchema = z.object({
  running: z.boolean(),
  version: z.string().nullable(),
  protocol: z.number().int().nullable(),
  /** What a restart would stop. */
  work: RunningWorkSchema,
});
export type MachineHost = z.infer<typeof MachineHostSchema>;

/** How Drover runs ssh: the system client (DROVER_SSH_COMMAND may name another, as GIT_SSH_COMMAND does). */
export interface SshClient {
  command: string;
  /** Arguments before Drover's own (e.g. `-F` with a config of a test's own). */
  args: string[];
}

/** The close code a machine's page sees when the connection to its machine ended; the reason says why, in plain words. */
export const MACHINE_GONE_CLOSE_CODE = 4001;

/**
 * The first line of a connection to the local socket that is a desktop window's line to another
 * machine: the host then serves it as the browser door serves a machine's page (host/machineDoor.ts).
 */
export const MachineLineOpenerSchema = z.object({ t: z.literal('machine-line'), machine: MachineNameSchema }).strict();
export type MachineLineOpener = z.infer<typeof MachineLineOpenerSchema>;

/** The last frame of such a line whose machine cannot be reached: what a WebSocket's close with MACHINE_GONE_CLOSE_CODE says. */
export const MachineGoneFrameSchema = z.object({ t: z.literal('machine-gone'), reason: z.string() });
export type MachineGoneFrame = z.infer<typeof MachineGoneFrameSchema>;

/** One ssh running a command on a machine (the host starts it: `wire/sshProcess.ts`). */
export interface SshProcess {
  stdin: NodeJS.WritableStream;
  stdout: NodeJS.ReadableStream;
  /** Once ssh has ended: its exit code (255: ssh itself failed) and the tail of its stderr, or why it could not run at all. */
  ended: Promise<SshEnd>;
}

export type SshEnd = { code: number; stderr: string } | { notRun: string };

/** Starts ssh to run `remoteCommand` on the machine. */
export type SshLauncher = (machine: Pick<Machine, 'destination' | 'port'>, remoteCommand: string) => SshProcess;

export function sshClientFrom(env: Record<string, string | undefined>): SshClient {
  const [command = 'ssh', ...args] = (env.DROVER_SSH_COMMAND ?? '').trim().split(/\s+/).filter(Boolean);
  return { command, args };
}

/** Where Drover's host lives on a remote, relative to the remote user's home. */
export function remoteHostDir(version: string): string {
  return `.local/share/drover/host-${version}`;
}

/**
 * A POSIX shell script as one remote command, whatever the login shell there is (fish, csh…). One
 * line: csh reads no newline inside quotes ("Unmatched '"), so a script joins its steps with `;`.
 */
export function posixCommand(script: string): string {
  if (script.includes('\n')) throw new Error('A script for a remote login shell is one line: join its steps with "; ".');
  return `sh -c '${script.replace(/'/g, `'\\''`)}'`;
}

/** The remote command of a machine's bridge: its host's socket on ssh's stdin and stdout. */
export function bridgeCommand(version: string): string {
  return remoteCliCommand(version, 'host connect');
}

/** `drover ARGS` on a machine, run by the CLI of that version of the host installed there. */
export function remoteCliCommand(version: string, args: string): string {
  return posixCommand(`exec node "$HOME/${remoteHostDir(version)}/cli.js" ${args}`);
}

/**
 * What Drover's ssh always asks, whatever the person's ssh config says for that host:
 * - BatchMode: nothing can answer a password or host-key question here, so ssh fails with its
 *   reason instead of waiting (host keys are checked as the config says, never weakened);
 * - no agent, X11 or port forwarding, no terminal and no RemoteCommand of the config's: the host
 *   started there outlives the connection, and its agents must not get the person's ssh agent (or
 *   a port listening there) through a `ForwardAgent yes` meant for their own logins;
 * - keepalives, so a link that went dead is noticed within about 45 s instead of TCP's hours.
 */
const SSH_OPTIONS = ['-o', 'BatchMode=yes', '-a', '-x', '-T', '-o', 'ClearAllForwardings=yes', '-o', 'RemoteCommand=none', '-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3'];

/** ssh's arguments to run `remoteCommand` on a machine. */
export function sshArgs(machine: Pick<Machine, 'destination' | 'port'>, remoteCommand: string): string[] {
  return [...SSH_OPTIONS, ...(machine.port ? ['-p', String(machine.port)] : []), '--', machine.destination, remoteCommand];
}

const SSH_REASONS: readonly [RegExp, string][] = [
  [/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|No .*host key is known/i, "its host key is not in your known_hosts (or has changed). Connect once with `ssh` in a terminal to check and accept the key, then try again."],
  [/Permission denied \(/i, 'it refused the login: no key of yours (or your ssh agent) is accepted there for that user.'],
  [/Could not resolve hostname/i, 'that host name cannot be resolved: check the destination or your ssh config.'],
  [/Connection refused/i, 'nothing accepts SSH connections on that port.'],
  [/timed out|No route to host|Network is unreachable/i, 'the machine cannot be reached over the network.'],
  [/Timeout, server .* not responding/i, 'it stopped answering: the network to it, or the machine, went away.'],
  [/closed by remote host|Broken pipe|client_loop/i, 'the connection to it was lost.'],
  [/Connection closed|Connection reset|kex_exchange_identification/i, 'the machine closed the connection before logging in.'],
];

/** ssh's own last words, and what they mean, for a connection that failed (exit 255). */
export function sshFailure(destination: string, stderr: string): string {
  const said = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('Warning: Permanently added'))
    .slice(-3)
    .join(' ');
  const reason = SSH_REASONS.find(([pattern]) => pattern.test(stderr))?.[1];
  return `Cannot connect to ${destination}: ${reason ?? 'ssh could not connect.'}${said ? ` (ssh: ${said})` : ''}`;
}
