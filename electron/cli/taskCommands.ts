import fs from 'node:fs';
import path from 'node:path';
import { AckCounter } from '../../shared/ackCounter';
import { formatDuration, taskRunTime } from '../../shared/duration';
import { ProjectIdSchema } from '../../shared/entities/ids';
import type { Project } from '../../shared/entities/projects';
import { isTaskFinished, type Task } from '../../shared/entities/tasks';
import { isInside } from '../../shared/folders';
import type { RpcClient } from '../../shared/rpcClient';
import { shellLine } from '../common/shellQuote';
import { describeExit } from '../common/taskExit';
import { agentCredentials } from './agentCredentials';
import { parseCommandArgs, taskIdArgument } from './cliOptions';
import { connectToDrover, type DroverCaller } from './socketClient';
import { quoted } from './terminalText';
import { Refusal, UsageError } from './usage';

export interface CliContext {
  socketPath: string;
  /** The machine (`--machine`) whose host the socket reaches, when not this one: paths are its. */
  machine?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
}

/** `drover task logs --follow`'s exit code when the task ended any other way than succeeding. */
const FOLLOWED_TASK_DID_NOT_SUCCEED = 3;

function howTaskEnded(task: Task): string {
  if (task.state === 'succeeded') return 'succeeded';
  const exit = task.signal || task.exitCode !== null ? describeExit(task) : task.reason;
  return exit ? `${task.state}: ${exit}` : task.state;
}

/**
 * The rows of `drover task list`, printed page by page as they come: columns of a fixed width, the
 * AGENT column as wide as the longest name among the project's agents (removed ones too).
 */
function taskTable(agentNames: ReadonlyMap<string, string>): { header: string; line: (task: Task) => string } {
  const agentWidth = Math.max('AGENT'.length, ...[...agentNames.values()].map((name) => quoted(name).length));
  return {
    header: ['ID'.padEnd(24), 'STATE'.padEnd(12), 'TRY'.padEnd(4), 'TIME'.padEnd(8), 'AGENT'.padEnd(agentWidth), 'COMMAND'].join(' '),
    line: (task) => {
      const runTime = taskRunTime(task, Date.now());
      const elapsed = runTime === null ? '-' : formatDuration(runTime);
      const owner = task.ownerAgentId ? quoted(agentNames.get(task.ownerAgentId) ?? task.ownerAgentId) : '-';
      const title = task.label ? `${quoted(task.label)}: ${quoted(task.command)}` : quoted(task.command);
      return [task.id.padEnd(24), task.state.padEnd(12), `#${task.attempt}`.padEnd(4), elapsed.padEnd(8), owner.padEnd(agentWidth), title].join(' ');
    },
  };
}

function taskDetails(task: Task): string {
  const rows: [string, string | number | null][] = [
    ['id', task.id],
    ['state', task.state],
    ['command', task.command],
    ['label', task.label],
    ['cwd', task.cwd],
    ['agent', task.ownerAgentId],
    ['attempt', task.attempt],
    ['retry of', task.retryOf],
    ['exit code', task.exitCode],
    ['signal', task.signal],
    ['reason', task.reason],
    ['created', new Date(task.createdAt).toISOString()],
    ['started', task.startedAt && new Date(task.startedAt).toISOString()],
    ['ended', task.endedAt && new Date(task.endedAt).toISOString()],
    ['pid', task.pid],
    ['log', task.logPath],
  ];
  return rows
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${`${key}:`.padEnd(11)}${typeof value === 'string' ? quoted(value) : value}`)
    .join('\n');
}

/** --project takes an id or a folder; otherwise the agent's env, otherwise the folder we are in. */
export async function resolveProject(rpc: DroverCaller, given: string | undefined, context: Pick<CliContext, 'env' | 'cwd' | 'machine'>): Promise<Project> {
  const wanted = given ?? context.env.DROVER_PROJECT_ID;
  if (wanted && ProjectIdSchema.safeParse(wanted).success) {
    const { projects } = await rpc.call('listProjects', {});
    const project = projects.find((p) => p.id === wanted);
    if (!project) throw new Refusal(`No project with id ${wanted} is registered in this Drover.`);
    return project;
  }
  if (!wanted && context.machine) throw new UsageError(`With --machine ${context.machine}, name the project: --project ID, or its absolute path on ${context.machine}.`);
  return rpc.call('findProjectByPath', { path: folderArgument(wanted ?? '.', context) });
}

/** A folder as given on the command line: from here, or on `--machine`, an absolute path there. */
export function folderArgument(given: string, context: Pick<CliContext, 'cwd' | 'machine'>): string {
  if (context.machine && !path.isAbsolute(given)) throw new UsageError(`With --machine ${context.machine}, give the folder's absolute path on ${context.machine} (not ${quoted(given)}).`);
  return path.resolve(context.cwd, given);
}

async function followLogs(rpc: RpcClient, taskId: string, out: (text: string) => void, wake: { signal: () => void; wait: () => Promise<void> }): Promise<void> {
  await rpc.call('watchTaskOutput', { taskId });
  let offset = 0;
  for (;;) {
    const finished = isTaskFinished((await rpc.call('getTask', { taskId })).state);
    for (;;) {
      const slice = await rpc.call('readTaskOutput', { taskId, offset });
      if (slice.data.length > 0) out(slice.data);
      if (slice.nextOffset === offset || slice.nextOffset >= slice.size) {
        offset = slice.nextOffset;
        break;
      }
      offset = slice.nextOffset;
    }
    if (finished) return;
    await wake.wait();
  }
}

function wakeSignal(): { signal: () => void; wait: () => Promise<void> } {
  let pending: (() => void) | undefined;
  let fired = false;
  return {
    signal: () => {
      fired = true;
      pending?.();
    },
    wait: () =>
      new Promise<void>((resolve) => {
        if (fired) {
          fired = false;
          resolve();
          return;
        }
        pending = () => {
          fired = false;
          pending = undefined;
          resolve();
        };
      }),
  };
}

/** `drover task ...`: returns the process exit code. */
export async function taskCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  const separator = rest.indexOf('--');
  const optionArgs = separator >= 0 ? rest.slice(0, separator) : rest;
  const commandWords = separator >= 0 ? rest.slice(separator + 1) : [];
  const options = {
    project: { type: 'string' },
    agent: { type: 'string' },
    label: { type: 'string' },
    cwd: { type: 'string' },
    json: { type: 'boolean', default: false },
    follow: { type: 'boolean', short: 'f', default: false },
  } as const;
  const { values, positionals } = parseCommandArgs(`drover task ${sub ?? ''}`.trim(), optionArgs, options, true);
  const json = values.json ?? false;
  const wake = wakeSignal();
  const followedTask: { id?: string } = {};
  // The output itself is read from the log; pushes only wake the follower, and are acknowledged so
  // the host keeps sending them.
  const acks = new AckCounter((bytes) => {
    if (followedTask.id) client.rpc.call('ackTaskOutput', { taskId: followedTask.id, bytes }).catch(() => undefined);
  });
  const client = await connectToDrover(
    context.socketPath,
    {
      onOutput: (chunk) => {
        if (chunk.taskId !== followedTask.id) return;
        acks.written(chunk.data.byteLength);
        wake.signal();
      },
      onEvent: (event) => event.name === 'backgroundTaskChanged' && event.task.id === followedTask.id && wake.signal(),
    },
    { agent: agentCredentials(context.env) },
  );
  const { rpc } = client;
  const printTask = (task: Task, plain: string) => context.out(json ? `${JSON.stringify(task, null, 2)}\n` : `${plain}\n`);
  try {
    switch (sub) {
      case 'run': {
        if (commandWords.length === 0) throw new UsageError('drover task run needs a command after --');
        const project = await resolveProject(rpc, values.project, context);
        const agent = values.agent ?? context.env.DROVER_AGENT_ID;
        // The rule of the page too: an owner's task runs in the owner's folder unless --cwd names one.
        const cwd = values.cwd ? folderArgument(values.cwd, context) : agent || context.machine ? undefined : insideOrDefault(project.path, context.cwd);
        const task = await rpc.call('createTask', {
          projectId: project.id,
          command: commandOf(commandWords),
          ...(cwd ? { cwd } : {}),
          ...(agent ? { ownerAgentId: agent } : {}),
          ...(values.label ? { label: values.label } : {}),
        });
        printTask(task, task.id);
        return 0;
      }
      case 'list': {
        const project = await resolveProject(rpc, values.project, context);
        const { agents, formerAgents } = await rpc.call('getWorkState', { projectId: project.id });
        const rows = taskTable(new Map([...formerAgents, ...agents].map((agent) => [agent.id, agent.name])));
        // Page by page, printed as it comes: a list of any length never has to fit in one string.
        let printed = 0;
        for (let after: string | undefined; ; ) {
          const page = await rpc.call('listTasks', { projectId: project.id, ...(after ? { after } : {}) });
          for (const task of page.tasks) {
            if (json) context.out(`${printed === 0 ? '[\n' : ',\n'}${JSON.stringify(task, null, 2).replace(/^/gm, '  ')}`);
            else context.out(`${printed === 0 ? `${rows.header}\n` : ''}${rows.line(task)}\n`);
            printed++;
          }
          if (page.next === null) break;
          after = page.next;
        }
        if (json) context.out(printed === 0 ? '[]\n' : '\n]\n');
        else if (printed === 0) context.out(`No tasks in ${quoted(project.name)}.\n`);
        return 0;
      }
      case 'show': {
        const task = await rpc.call('getTask', { taskId: taskIdArgument(positionals, 'show') });
        printTask(task, taskDetails(task));
        return 0;
      }
      case 'logs': {
        const taskId = taskIdArgument(positionals, 'logs');
        if (values.follow) {
          followedTask.id = taskId;
          await followLogs(rpc, taskId, context.out, wake);
          // The log says what the command printed; how it ended goes beside it, and into the exit code.
          const ended = await rpc.call('getTask', { taskId });
          context.err(`drover: task ${taskId} ${howTaskEnded(ended)}\n`);
          return ended.state === 'succeeded' ? 0 : FOLLOWED_TASK_DID_NOT_SUCCEED;
        } else {
          let offset = 0;
          for (;;) {
            const slice = await rpc.call('readTaskOutput', { taskId, offset });
            context.out(slice.data);
            if (slice.nextOffset >= slice.size || slice.nextOffset === offset) break;
            offset = slice.nextOffset;
          }
        }
        return 0;
      }
      case 'cancel': {
        const task = await rpc.call('cancelTask', { taskId: taskIdArgument(positionals, 'cancel') });
        printTask(task, `${task.id} ${task.state}`);
        return 0;
      }
      case 'retry': {
        const task = await rpc.call('retryTask', { taskId: taskIdArgument(positionals, 'retry') });
        printTask(task, task.id);
        return 0;
      }
      default:
        throw new UsageError(sub ? `Unknown task command: ${sub}` : 'drover task needs a command: run, list, show, logs, cancel, retry');
    }
  } finally {
    client.close();
  }
}

/**
 * One word is a shell line, run as written (`drover task run -- 'make && make test'`); several
 * words are an argv and each stays one word, as `docker run`, `env` and `timeout` keep theirs.
 */
export function commandOf(words: readonly string[]): string {
  return words.length === 1 ? (words[0] ?? '') : shellLine(words);
}

/**
 * Runs where the caller stands when that is inside the project; elsewhere Drover picks: the
 * agent's worktree for an agent's task, the project root otherwise.
 */
function insideOrDefault(projectRoot: string, cwd: string): string | undefined {
  return isInside(projectRoot, fs.realpathSync(cwd)) ? cwd : undefined;
}
