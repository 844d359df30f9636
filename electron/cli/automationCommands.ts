import { describeAction, describeTrigger, type Automation, type AutomationRun, type AutomationTrigger } from '../../shared/automations';
import type { MethodParams } from '../../shared/contract';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { folderArgument, resolveProject, type CliContext } from './taskCommands';
import { quoted } from './terminalText';
import { UsageError } from './usage';
import { table } from './worktreeCommands';

const SUBCOMMANDS = ['add', 'list', 'history', 'run', 'pause', 'resume', 'remove', 'next'];
const TASK_EVENTS: Record<string, 'succeeded' | 'failed' | 'any'> = { 'task-succeeded': 'succeeded', 'task-failed': 'failed', 'task-ended': 'any' };

type NewTrigger = MethodParams<'addAutomation'>['trigger'];

function whenText(at: number): string {
  return new Date(at).toLocaleString('sv-SE', { dateStyle: 'short', timeStyle: 'short' });
}

const EVENTS = 'issue-labelled=LABEL, issue-opened, check-failed=BRANCH, changes-requested, agent-failed[=AGENT], task-succeeded=LABEL, task-failed=LABEL or task-ended=LABEL';

/** --on EVENT: issue-labelled=LABEL | issue-opened | check-failed=BRANCH | changes-requested | agent-failed[=AGENT] | task-succeeded=LABEL | task-failed=LABEL | task-ended=LABEL. */
function eventTrigger(event: string): NewTrigger {
  const [kind = '', label] = event.split(/=(.*)/s);
  if (kind === 'issue-opened' || kind === 'changes-requested') {
    if (label !== undefined) throw new UsageError(`--on ${kind} takes no value: --on ${kind}`);
    return { kind };
  }
  if (kind === 'issue-labelled') {
    if (!label) throw new UsageError('--on issue-labelled needs the label it waits for: --on issue-labelled=LABEL');
    return { kind: 'issue-labelled', label };
  }
  if (kind === 'agent-failed') return { kind: 'agent-failed', agent: label ?? null };
  if (kind === 'check-failed') {
    if (!label) throw new UsageError('--on check-failed needs the branch whose checks it watches: --on check-failed=BRANCH');
    return { kind: 'check-failed', branch: label };
  }
  const outcome = TASK_EVENTS[kind];
  if (!outcome) throw new UsageError(`--on ${quoted(event)} is not an event Drover knows: ${EVENTS}.`);
  if (!label) throw new UsageError(`--on ${kind} needs the task label it waits for: --on ${kind}=LABEL`);
  return { kind: 'task-ended', label, outcome };
}

/** A schedule's time zone is the person's: the list leaves it out. */
function triggerText(trigger: AutomationTrigger): string {
  return trigger.kind === 'schedule' ? `cron ${trigger.cron}` : describeTrigger(trigger);
}

function actionText(automation: Automation): string {
  return describeAction(automation.action);
}

function stateText(automation: Automation): string {
  if (automation.enabled) return 'enabled';
  return automation.pausedReason ? `paused: ${automation.pausedReason}` : 'paused';
}

function runWork(run: AutomationRun): string {
  if (run.taskId) return `task ${run.taskId}`;
  return run.agentId ? `agent ${run.agentId}` : '-';
}

function nameArgument(positionals: string[], sub: string): string {
  const [name, extra] = positionals;
  if (!name || extra !== undefined) throw new UsageError(`drover automation ${sub} takes exactly one automation name`);
  return name;
}

function positiveNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`${option} takes a whole number (not ${quoted(text)})`);
  return Number(text);
}

/** `drover automation ...`: the project's rules that run tasks or message agents on a schedule or an event. */
export async function automationCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || !SUBCOMMANDS.includes(sub)) throw new UsageError(sub ? `Unknown automation command: ${sub}` : `drover automation needs a command: ${SUBCOMMANDS.join(', ')}`);
  const { values, positionals } = parseCommandArgs(
    `drover automation ${sub}`,
    rest,
    {
      project: { type: 'string' },
      json: { type: 'boolean', default: false },
      ...(sub === 'add'
        ? {
            cron: { type: 'string' },
            on: { type: 'string' },
            task: { type: 'string' },
            cwd: { type: 'string' },
            owner: { type: 'string' },
            message: { type: 'string' },
            text: { type: 'string' },
            agent: { type: 'string' },
            prompt: { type: 'string' },
            base: { type: 'string' },
            'time-zone': { type: 'string' },
            'daily-cap': { type: 'string' },
            'catch-up-minutes': { type: 'string' },
          }
        : {}),
    } as const,
    sub !== 'list' && sub !== 'next',
  );
  const option = (name: string) => (values as Record<string, string | boolean | undefined>)[name] as string | undefined;
  const client = await connectToDrover(context.socketPath);
  const { rpc } = client;
  const print = (value: unknown, text: string) => context.out(values.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
  try {
    const project = await resolveProject(rpc, values.project, context);
    const projectId = project.id;
    switch (sub) {
      case 'add': {
        const name = nameArgument(positionals, sub);
        const cron = option('cron');
        const on = option('on');
        if ((cron === undefined) === (on === undefined)) throw new UsageError('drover automation add takes one trigger: --cron EXPR or --on EVENT');
        const task = option('task');
        const message = option('message');
        const profile = option('agent');
        if ([task, message, profile].filter((given) => given !== undefined).length !== 1) {
          throw new UsageError('drover automation add takes one action: --task CMD, --agent PROFILE --prompt TEXT or --message AGENT --text TEXT');
        }
        const text = option('text');
        if (message !== undefined && text === undefined) throw new UsageError('--message AGENT needs the message: --text TEXT');
        const prompt = option('prompt');
        if (profile !== undefined && prompt === undefined) throw new UsageError('--agent PROFILE needs its first prompt: --prompt TEXT');
        const base = option('base');
        const timeZone = option('time-zone') ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
        const cwd = option('cwd');
        const owner = option('owner');
        if (owner !== undefined && task === undefined) throw new UsageError('--owner AGENT goes with --task CMD: the agent that owns the task');
        const catchUpMinutes = positiveNumber(option('catch-up-minutes'), '--catch-up-minutes');
        const added = await rpc.call('addAutomation', {
          projectId,
          name,
          trigger: cron !== undefined ? { kind: 'schedule', cron, timeZone } : eventTrigger(on!),
          action:
            task !== undefined
              ? { kind: 'task', command: task, cwd: cwd === undefined ? null : folderArgument(cwd, context), owner: owner ?? null }
              : profile !== undefined
                ? { kind: 'agent', profileId: profile, prompt: prompt!, base: base ?? null }
                : { kind: 'message', agent: message!, text: text! },
          dailyCap: positiveNumber(option('daily-cap'), '--daily-cap'),
          catchUpMs: catchUpMinutes === undefined ? undefined : catchUpMinutes * 60_000,
        });
        const next = added.nextRunAt === null ? '' : `; next run ${whenText(added.nextRunAt)}`;
        print(added, `Added automation ${quoted(added.name)}: ${triggerText(added.trigger)} -> ${actionText(added)}${next}`);
        return 0;
      }
      case 'list': {
        const automations = await rpc.call('listAutomations', { projectId });
        if (values.json) print(automations, '');
        else if (automations.length === 0) context.out(`${quoted(project.name)} has no automations yet: drover automation add NAME --cron EXPR --task CMD\n`);
        else {
          const rows = automations.map((automation) => [
            automation.name,
            triggerText(automation.trigger),
            actionText(automation),
            stateText(automation),
            automation.nextRunAt === null ? '-' : whenText(automation.nextRunAt),
            automation.lastRun ? `${automation.lastRun.state} ${whenText(automation.lastRun.at)}` : '-',
          ]);
          context.out(`${table([['NAME', 'TRIGGER', 'ACTION', 'STATE', 'NEXT RUN', 'LAST RUN'], ...rows])}\n`);
        }
        return 0;
      }
      case 'history': {
        const runs = await rpc.call('getAutomationHistory', { projectId, name: nameArgument(positionals, sub) });
        if (values.json) print(runs, '');
        else if (runs.length === 0) context.out('It has not run yet.\n');
        else {
          const rows = runs.map((run) => [whenText(run.startedAt), run.state, run.trigger, runWork(run), run.reason ?? '']);
          context.out(`${table([['STARTED', 'STATE', 'TRIGGER', 'STARTED WORK', 'REASON'], ...rows])}\n`);
        }
        return 0;
      }
      case 'run': {
        const run = await rpc.call('runAutomation', { projectId, name: nameArgument(positionals, sub) });
        print(run, run === null ? 'Nothing ran.' : `${run.state}${run.reason ? `: ${run.reason}` : ''} (${runWork(run)})`);
        return run === null || run.state === 'skipped' || run.state === 'failed' ? 2 : 0;
      }
      case 'pause':
      case 'resume': {
        const name = nameArgument(positionals, sub);
        const changed = await rpc.call(sub === 'pause' ? 'pauseAutomation' : 'resumeAutomation', { projectId, name });
        print(changed, `${quoted(changed.name)} is ${stateText(changed)}.`);
        return 0;
      }
      case 'remove': {
        const removed = await rpc.call('removeAutomation', { projectId, name: nameArgument(positionals, sub) });
        print(removed, `Removed automation ${quoted(removed.name)}.`);
        return 0;
      }
      default: {
        const upcoming = await rpc.call('getUpcomingAutomationRuns', { projectId });
        if (values.json) print(upcoming, '');
        else if (upcoming.length === 0) context.out(`${quoted(project.name)} has no automations yet.\n`);
        else {
          const rows = upcoming.map((run) => [run.paused ? 'paused' : run.at === null ? `on ${run.trigger}` : whenText(run.at), run.name, run.action]);
          context.out(`${table([['WHEN', 'NAME', 'WOULD RUN'], ...rows])}\n`);
        }
        return 0;
      }
    }
  } finally {
    client.close();
  }
}
