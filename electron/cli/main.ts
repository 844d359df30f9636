import path from 'node:path';
import readline from 'node:readline/promises';
import packageJson from '../../package.json';
import { DroverRequestError } from '../../shared/protocol';
import { defaultDataDir, socketPathFor } from '../wire/paths';
import { parseCommandArgs } from './cliOptions';
import { issueCommand, pullRequestCommand } from './forgeCommands';
import { agentCredentials } from './agentCredentials';
import { hookCommand } from './hookCommand';
import { inboxCommand } from './inboxCommands';
import { hostCommand, type HostCliContext } from './hostCommands';
import { runMcpServer } from './mcp/mcpServer';
import { serve } from './serve';
import { connectToDrover } from './socketClient';
import { taskCommand, type CliContext } from './taskCommands';
import { turnsCommand } from './turnCommands';
import { quoted, withoutControls } from './terminalText';
import { USAGE, UsageError } from './usage';
import { worktreeCommand } from './worktreeCommands';

/** `--data-dir D` may stand anywhere before `--`; it picks the Drover to talk to. */
function takeDataDir(args: string[]): { dataDir: string | undefined; rest: string[] } {
  const end = args.indexOf('--') >= 0 ? args.indexOf('--') : args.length;
  const at = args.slice(0, end).indexOf('--data-dir');
  if (at < 0) return { dataDir: undefined, rest: args };
  const value = args[at + 1];
  if (!value) throw new UsageError('--data-dir needs a folder');
  return { dataDir: path.resolve(value), rest: [...args.slice(0, at), ...args.slice(at + 2)] };
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

async function status(args: string[], context: CliContext): Promise<number> {
  const { values } = parseCommandArgs('drover status', args, { json: { type: 'boolean', default: false } });
  const client = await connectToDrover(context.socketPath, {}, { agent: agentCredentials(context.env) });
  try {
    const info = await client.rpc.call('getStatus', {});
    if (values.json) {
      context.out(`${JSON.stringify(info, null, 2)}\n`);
      return 0;
    }
    const projects = info.projects.map((p) => `  ${p.id}  ${quoted(p.name)}  ${quoted(p.path)}`).join('\n');
    context.out(
      `Drover ${quoted(info.version)}\ndata dir: ${quoted(info.dataDir)}\nsocket:   ${quoted(info.socketPath)}\nprojects: ${info.projects.length}\n${projects}${projects ? '\n' : ''}`,
    );
    return 0;
  } finally {
    client.close();
  }
}

async function run(argv: string[]): Promise<number> {
  const [first, ...afterFirst] = argv;
  if (first === 'hook') return hookCommand(afterFirst, process.env);
  const { dataDir, rest: withoutDataDir } = takeDataDir(argv);
  const [command, ...rest] = withoutDataDir;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
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
  if (command === 'serve') return serve(rest, ofDataDir);
  if (command === 'host') return hostCommand(rest, ofDataDir);
  if (command === 'status') return status(rest, context);
  if (command === 'mcp') {
    const { values } = parseCommandArgs('drover mcp', rest, { project: { type: 'string' } });
    return runMcpServer({ socketPath: context.socketPath, project: values.project, cwd: context.cwd, env: context.env, version: packageJson.version });
  }
  if (command === 'task') return taskCommand(rest, context);
  if (command === 'worktree') return worktreeCommand(rest, context);
  if (command === 'inbox') return inboxCommand(rest, context);
  if (command === 'pr') return pullRequestCommand(rest, context);
  if (command === 'issue') return issueCommand(rest, context);
  if (command === 'turns') return turnsCommand(rest, context);
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
    const refused = error instanceof UsageError || (error instanceof DroverRequestError && error.code !== 'internal') || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.exitCode = refused ? 2 : 1;
  },
);
