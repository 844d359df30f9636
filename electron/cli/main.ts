import path from 'node:path';
import readline from 'node:readline/promises';
import packageJson from '../../package.json';
import { sshClientFrom } from '../../shared/machines';
import { DroverRequestError } from '../../shared/protocol';
import { AGENT_PROOF_ENV } from '../common/agentEnv';
import { defaultDataDir, socketPathFor } from '../wire/paths';
import { sshLauncher } from '../wire/sshProcess';
import { openSshRelay } from '../wire/sshRelay';
import { automationCommand } from './automationCommands';
import { parseCommandArgs } from './cliOptions';
import { issueCommand, pullRequestCommand } from './forgeCommands';
import { hookCommand } from './hookCommand';
import { hostCommand, type HostCliContext } from './hostCommands';
import { inboxCommand } from './inboxCommands';
import { machineCommand } from './machineCommands';
import { runMcpServer } from './mcp/mcpServer';
import { projectCommand } from './projectCommands';
import { serve } from './serve';
import { connectToDrover } from './socketClient';
import { statusCommand } from './statusCommand';
import { taskCommand, type CliContext } from './taskCommands';
import { withoutControls } from './terminalText';
import { turnsCommand } from './turnCommands';
import { Refusal, USAGE, UsageError, usageOf } from './usage';
import { worktreeCommand } from './worktreeCommands';
import { mergeQueueCommand } from './mergeQueueCommands';

/** `--data-dir D` may stand anywhere before `--`; it picks the Drover to talk to. */
function takeDataDir(args: string[]): { dataDir: string | undefined; rest: string[] } {
  const end = args.indexOf('--') >= 0 ? args.indexOf('--') : args.length;
  const at = args.slice(0, end).indexOf('--data-dir');
  if (at < 0) return { dataDir: undefined, rest: args };
  const value = args[at + 1];
  if (!value) throw new UsageError('--data-dir needs a folder');
  return { dataDir: path.resolve(value), rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}

/** `--machine NAME` may stand anywhere before `--`: the command then acts on that machine's Drover. */
function takeMachine(args: string[]): { machine: string | undefined; rest: string[] } {
  const end = args.indexOf('--') >= 0 ? args.indexOf('--') : args.length;
  const at = args.slice(0, end).indexOf('--machine');
  if (at < 0) return { machine: undefined, rest: args };
  const value = args[at + 1];
  if (!value || value.startsWith('-')) throw new UsageError('--machine needs the name of a machine (drover machine list shows them)');
  return { machine: value, rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}

/** The commands that act on a project's work, and so may act on another machine's. */
const MACHINE_COMMANDS = new Set(['status', 'project', 'task', 'worktree', 'inbox', 'pr', 'issue', 'turns', 'automation', 'merge-queue']);

/**
 * Runs a command against the host of the machine the local Drover knows by that name, through an
 * ssh relay; a connection ssh could not make is reported in ssh's words, not as a closed socket.
 */
async function onMachine(name: string, context: CliContext, command: (context: CliContext) => Promise<number>): Promise<number> {
  const local = await connectToDrover(context.socketPath);
  let machine;
  try {
    const { machines } = await local.rpc.call('listMachines', {});
    if (!machines.some((candidate) => candidate.name === name)) throw new Refusal(`No machine named ${name} (${machines.length ? `machines: ${machines.map((m) => m.name).join(', ')}` : 'add one with drover machine add NAME user@host'}).`);
    ({ machine } = await local.rpc.call('updateMachineHost', { name }));
  } finally {
    local.close();
  }
  const relay = await openSshRelay(sshLauncher(sshClientFrom(context.env)), machine);
  // An agent of this machine is no agent there: its proof stays with the host that made it.
  const { DROVER_AGENT_ID: _agent, [AGENT_PROOF_ENV]: _proof, DROVER_PROJECT_ID: _project, ...env } = context.env;
  try {
    return await command({ ...context, env, socketPath: relay.socketPath, machine: name, cwd: '/' });
  } catch (error) {
    const failure = relay.failure();
    throw failure ? new Error(failure, { cause: error }) : error;
  } finally {
    await relay.close();
  }
}

/**
 * The words of the command whose usage was asked for: `drover help task run`, or `--help` / `-h`
 * anywhere before `--` (after it they are words of the command a task runs); null otherwise.
 */
function askedForUsage(command: string, rest: readonly string[]): string[] | null {
  if (command === 'help') return [...rest];
  const end = rest.indexOf('--') >= 0 ? rest.indexOf('--') : rest.length;
  const options = rest.slice(0, end);
  if (!options.includes('--help') && !options.includes('-h')) return null;
  const firstOption = options.findIndex((word) => word.startsWith('-'));
  return [command, ...options.slice(0, firstOption)];
}

function socketPath(dataDir: string | undefined): string {
  if (dataDir) return socketPathFor(dataDir);
  return process.env.DROVER_SOCKET || socketPathFor(defaultDataDir());
}

/** A yes/no question on the terminal, or null when stdin is not one (a script must say --force). */
function terminalConfirm(): HostCliContext['confirm'] {
  if (!process.stdin.isTTY) return null;
  return async (question) => {
    const prompt = readline.createInterface({ input: process.stdin, output: process.stdout });
    try {
      return /^y(es)?$/i.test((await prompt.question(question)).trim());
    } finally {
      prompt.close();
    }
  };
}

async function run(argv: string[]): Promise<number> {
  const [first, ...afterFirst] = argv;
  if (first === 'hook') return hookCommand(afterFirst, process.env);
  const { dataDir, rest: withoutDataDir } = takeDataDir(argv);
  const { machine, rest: withoutMachine } = takeMachine(withoutDataDir);
  const [command, ...rest] = withoutMachine;
  if (command === undefined || command === '--help' || command === '-h' || (command === 'help' && rest.length === 0)) {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  const asked = askedForUsage(command, rest);
  if (asked) {
    const usage = usageOf(asked);
    if (!usage) throw new UsageError(`Unknown command: ${asked.join(' ')}`);
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (command === '--version') {
    process.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  const context: HostCliContext = {
    socketPath: socketPath(dataDir),
    dataDir: dataDir ?? defaultDataDir(),
    version: packageJson.version,
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    confirm: terminalConfirm(),
  };
  // The host of a data dir is reached through that data dir's socket, whatever DROVER_SOCKET says.
  const ofDataDir = { ...context, socketPath: socketPathFor(context.dataDir) };
  if (machine !== undefined) {
    if (!MACHINE_COMMANDS.has(command)) throw new UsageError(`drover ${command} does not take --machine (it acts on this machine's Drover)`);
    return onMachine(machine, context, (onIt) => projectWork(command, rest, onIt));
  }
  if (command === 'serve') return serve(rest, ofDataDir);
  if (command === 'host') return hostCommand(rest, ofDataDir);
  if (command === 'machine') return machineCommand(rest, context);
  if (command === 'mcp') {
    const { values } = parseCommandArgs('drover mcp', rest, { project: { type: 'string' } });
    return runMcpServer({ socketPath: context.socketPath, project: values.project, cwd: context.cwd, env: context.env, version: packageJson.version });
  }
  return projectWork(command, rest, context);
}

/** The commands of MACHINE_COMMANDS, on whichever host the context reaches. */
function projectWork(command: string, rest: string[], context: CliContext): Promise<number> {
  if (command === 'status') return statusCommand(rest, context);
  if (command === 'project') return projectCommand(rest, context);
  if (command === 'task') return taskCommand(rest, context);
  if (command === 'worktree') return worktreeCommand(rest, context);
  if (command === 'inbox') return inboxCommand(rest, context);
  if (command === 'pr') return pullRequestCommand(rest, context);
  if (command === 'issue') return issueCommand(rest, context);
  if (command === 'turns') return turnsCommand(rest, context);
  if (command === 'automation') return automationCommand(rest, context);
  if (command === 'merge-queue') return mergeQueueCommand(rest, context);
  throw new UsageError(`Unknown command: ${command}`);
}

// A reader that stops early (`drover task list | head -5`) closes the pipe: what is left to print
// is not wanted, which is no failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`drover: ${withoutControls(message)}\n`);
    if (error instanceof UsageError) process.stderr.write(`Run \`drover help\` for usage.\n`);
    const refused = error instanceof UsageError || error instanceof Refusal || (error instanceof DroverRequestError && error.code !== 'internal') || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.exitCode = refused ? 2 : 1;
  },
);
