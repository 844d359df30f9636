import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { HostStatus, RunningWork } from '../../shared/host';
import { formatDuration } from '../../shared/duration';
import { countOf } from '../../shared/plural';
import { CommandLineToolSourceSchema, type CommandLineToolSource } from '../core/commandLineTool/commandLineTool';
import { boundHeapGrowth, reclaimHeapWhenQuiet } from '../host/heapReclaim';
import { startHost } from '../host/host';
import { ensureHost, hostAnswers, type HostCommand } from '../host/hostLauncher';
import { isRecordedHostAlive, readHostRecord } from '../host/hostRecord';
import { keepServingOnUnhandledRejection } from '../host/lastResort';
import { cliRuntime } from './cliRuntime';
import { connectToDrover } from './socketClient';
import type { CliContext } from './taskCommands';
import { quoted } from './terminalText';
import { Refusal, UsageError } from './usage';

export interface HostCliContext extends CliContext {
  dataDir: string;
  version: string;
  /** Asks the person a yes/no question on the terminal; null when there is no terminal to ask on. */
  confirm: ((question: string) => Promise<boolean>) | null;
}

/** How a window tells the host it starts what "Install command line tool" writes (JSON of a CommandLineToolSource). */
export const COMMAND_LINE_TOOL_ENV = 'DROVER_COMMAND_LINE_TOOL';

/** `drover host run` on this same runtime: how a client starts a host that outlives it. */
export function hostCommandFor(dataDir: string, env: NodeJS.ProcessEnv): HostCommand {
  const runtime = cliRuntime({ execPath: process.execPath, cliDir: __dirname, versions: process.versions, env });
  const [command, ...args] = runtime.cliCommand as [string, ...string[]];
  return { command, args: [...args, 'host', 'run', '--data-dir', dataDir], env: { ...env, ...runtime.cliEnv } };
}

function timestamped(line: string): string {
  return `[drover ${new Date().toISOString()}] ${line}\n`;
}

/** What the desktop app says "Install command line tool" writes (see desktop/hostRuntime.ts); else a launcher of this CLI. */
function commandLineToolFrom(env: NodeJS.ProcessEnv): CommandLineToolSource | undefined {
  const given = env[COMMAND_LINE_TOOL_ENV];
  if (!given) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(given);
  } catch {
    throw new Refusal(`${COMMAND_LINE_TOOL_ENV} is not JSON`);
  }
  const source = CommandLineToolSourceSchema.safeParse(parsed);
  if (!source.success) throw new Refusal(`${COMMAND_LINE_TOOL_ENV} does not describe a command line tool: ${source.error.message}`);
  return source.data;
}

/** `drover host run`: the host in the foreground (for systemd, a container, or a client that started it). */
async function runHost(context: HostCliContext): Promise<number> {
  const log = (line: string) => process.stderr.write(timestamped(line));
  keepServingOnUnhandledRejection(log);
  boundHeapGrowth();
  const { [COMMAND_LINE_TOOL_ENV]: _told, ...env } = process.env;
  const commandLineTool = commandLineToolFrom(process.env);
  const runtime = cliRuntime({ execPath: process.execPath, cliDir: __dirname, versions: process.versions, env });
  const remoteHostBundleDir = path.join(__dirname, '..', 'remote-host');
  const host = await startHost({ dataDir: context.dataDir, version: context.version, log, remoteHostBundleDir, ...runtime, ...(commandLineTool ? { commandLineTool } : {}) });
  log(`host ${process.pid} serving ${context.dataDir} on ${host.socketPath}`);
  const stopReclaiming = reclaimHeapWhenQuiet(log);
  // Not a terminal's job to stop it: a hang-up of whoever started it changes nothing.
  process.on('SIGHUP', () => undefined);
  const stop = (signal: string) => {
    log(`${signal}: stopping agents and tasks`);
    void host.close();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  await host.stopped;
  stopReclaiming();
  log('host stopped');
  return 0;
}

/** The running work by name: an agent's task label, a project's name, each quoted where it holds control characters. */
function describeWork(work: RunningWork): string[] {
  return [
    ...work.agents.map((agent) => `  agent ${quoted(agent.name)} (${agent.state}) in ${quoted(agent.projectName)}`),
    ...work.tasks.map((task) => `  task ${quoted(task.name)} (${task.state}) in ${quoted(task.projectName)}`),
  ];
}

function workCount(work: RunningWork): string {
  return `${countOf(work.agents.length, 'agent')} and ${countOf(work.tasks.length, 'task')}`;
}

async function readStatus(socketPath: string): Promise<HostStatus> {
  const client = await connectToDrover(socketPath, {}, { anyProtocol: true });
  try {
    return await client.rpc.call('getHostStatus', {});
  } finally {
    client.close();
  }
}

async function status(args: string[], context: HostCliContext): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true });
  if (!(await hostAnswers(context.socketPath))) {
    const record = readHostRecord(context.dataDir);
    const stale = record && isRecordedHostAlive(record) ? `\nA process of its (pid ${record.pid}) is still alive but does not answer; its log: ${quoted(record.logFile)}` : '';
    if (values.json) context.out(`${JSON.stringify({ alive: false, dataDir: context.dataDir, socketPath: context.socketPath }, null, 2)}\n`);
    else context.out(`Drover host: not running (data dir ${quoted(context.dataDir)})${stale}\n`);
    return 1;
  }
  const info = await readStatus(context.socketPath);
  if (values.json) {
    context.out(`${JSON.stringify({ alive: true, ...info }, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `Drover host: running, pid ${info.pid}, version ${quoted(info.version)} (protocol ${info.protocol}), up ${formatDuration(Date.now() - info.startedAt)}`,
    `data dir: ${quoted(info.dataDir)}`,
    `socket:   ${quoted(info.socketPath)}`,
    `log:      ${quoted(info.logFile)}`,
    `clients:  ${info.clients}`,
    // The address only: the token stays with the serve that printed it.
    `browser:  ${info.webDoors.length ? info.webDoors.map((door) => new URL(door.url).origin).join(', ') : 'no door open (drover serve opens one)'}`,
    `running:  ${workCount(info.running)}`,
    ...describeWork(info.running),
  ];
  context.out(`${lines.join('\n')}\n`);
  return 0;
}

async function start(context: HostCliContext): Promise<number> {
  const outcome = await ensureHost({ dataDir: context.dataDir, socketPath: context.socketPath, start: hostCommandFor(context.dataDir, process.env) });
  const info = await readStatus(context.socketPath);
  context.out(`Drover host ${outcome === 'started' ? 'started' : 'already running'}: pid ${info.pid}, version ${quoted(info.version)}, data dir ${quoted(info.dataDir)}\n`);
  return 0;
}

/** Asks before ending running work, unless told not to; false when the person (or no terminal) said no. */
async function mayStop(work: RunningWork, force: boolean, context: HostCliContext): Promise<boolean> {
  if (force || (work.agents.length === 0 && work.tasks.length === 0)) return true;
  context.out(`Stopping the host ends ${workCount(work)}: agents stop, running tasks end interrupted (retry them later).\n${describeWork(work).join('\n')}\n`);
  if (!context.confirm) throw new Refusal('Not stopped: there is no terminal to ask on. Add --force to stop them anyway.');
  return context.confirm('Stop them? [y/N] ');
}

/** Asks the host to stop and waits until it has: its socket closed and its process gone. */
async function stopRunningHost(context: HostCliContext): Promise<RunningWork> {
  const client = await connectToDrover(context.socketPath, {}, { anyProtocol: true });
  const record = readHostRecord(context.dataDir);
  try {
    const { stopped } = await client.rpc.call('stopHost', {});
    await client.closed;
    const deadline = Date.now() + 60_000;
    while (record && isRecordedHostAlive(record) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return stopped;
  } finally {
    client.close();
  }
}

async function stop(args: string[], context: HostCliContext, thenStart: boolean): Promise<number> {
  const { values } = parseArgs({ args, options: { force: { type: 'boolean' } }, strict: true });
  if (!(await hostAnswers(context.socketPath))) {
    if (!thenStart) {
      context.out(`Drover host: not running (data dir ${quoted(context.dataDir)})\n`);
      return 0;
    }
    return start(context);
  }
  const { running } = await readStatus(context.socketPath);
  if (!(await mayStop(running, values.force === true, context))) {
    context.out('Not stopped.\n');
    return 2;
  }
  const stopped = await stopRunningHost(context);
  context.out(`Drover host stopped (${workCount(stopped)} ended).\n`);
  return thenStart ? start(context) : 0;
}

/**
 * `drover host connect`: this user's host on stdin and stdout, started when none runs. What another
 * machine's Drover runs over ssh: the bridge adds nothing to the protocol and opens no port.
 */
async function connect(context: HostCliContext): Promise<number> {
  await ensureHost({ dataDir: context.dataDir, socketPath: context.socketPath, start: hostCommandFor(context.dataDir, process.env) });
  const socket = net.connect(context.socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  // Either side ending ends the bridge: ssh's stdin closing is the client gone, the socket's the host.
  process.stdin.once('end', () => socket.end());
  await new Promise<void>((resolve) => socket.once('close', resolve));
  process.stdin.destroy();
  return 0;
}

/** `drover host run | start | connect | status | stop | restart`. */
export async function hostCommand(args: string[], context: HostCliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'run') {
    parseArgs({ args: rest, options: {}, strict: true });
    return runHost(context);
  }
  if (sub === 'start') return start(context);
  if (sub === 'connect') {
    parseArgs({ args: rest, options: {}, strict: true });
    return connect(context);
  }
  if (sub === 'status') return status(rest, context);
  if (sub === 'stop') return stop(rest, context, false);
  if (sub === 'restart') return stop(rest, context, true);
  throw new UsageError(sub ? `Unknown host command: ${sub}` : 'drover host needs a command: run, start, connect, status, stop or restart');
}
