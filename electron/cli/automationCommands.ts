import { describeAction, describeTrigger, type Automation, type AutomationRun, type AutomationTrigger } from '../../shared/automations';
import { newRule, ruleChange, type RuleContext, type RuleFlags } from './automationRule';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { folderArgument, resolveProject, type CliContext } from './taskCommands';
import { quoted } from './terminalText';
import { Refusal, UsageError } from './usage';
import { table } from './worktreeCommands';

const SUBCOMMANDS = ['add', 'edit', 'list', 'history', 'run', 'pause', 'resume', 'remove', 'next'];

function whenText(at: number): string {
  return new Date(at).toLocaleString('sv-SE', { dateStyle: 'short', timeStyle: 'short' });
}

/** A schedule's time zone is the person's: the list leaves it out. */
function triggerText(trigger: AutomationTrigger): string {
  return trigger.kind === 'schedule' ? `cron ${trigger.cron}` : describeTrigger(trigger);
}

function actionText(automation: Automation): string {
  return describeAction(automation.action);
}

/** What sets it off, what it does, and when it runs next. */
function ruleText(automation: Automation): string {
  const next = automation.nextRunAt === null ? '' : `; next run ${whenText(automation.nextRunAt)}`;
  return `${triggerText(automation.trigger)} -> ${actionText(automation)}${next}`;
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
      ...(sub === 'add' || sub === 'edit'
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
  const ruleFlags = (): RuleFlags => ({
    cron: option('cron'),
    on: option('on'),
    timeZone: option('time-zone'),
    task: option('task'),
    cwd: option('cwd'),
    owner: option('owner'),
    message: option('message'),
    text: option('text'),
    agent: option('agent'),
    prompt: option('prompt'),
    base: option('base'),
    dailyCap: option('daily-cap'),
    catchUpMinutes: option('catch-up-minutes'),
  });
  const ruleContext: RuleContext = { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, folder: (given) => folderArgument(given, context) };
  const print = (value: unknown, text: string) => context.out(values.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
  try {
    const project = await resolveProject(rpc, values.project, context);
    const projectId = project.id;
    switch (sub) {
      case 'add': {
        const name = nameArgument(positionals, sub);
        const added = await rpc.call('addAutomation', { projectId, name, ...newRule(ruleFlags(), ruleContext) });
        print(added, `Added automation ${quoted(added.name)}: ${ruleText(added)}`);
        return 0;
      }
      case 'edit': {
        const name = nameArgument(positionals, sub);
        const current = (await rpc.call('listAutomations', { projectId })).find((automation) => automation.name.toLowerCase() === name.toLowerCase());
        if (!current) throw new Refusal(`There is no automation named ${name} in ${quoted(project.name)}.`);
        const edited = await rpc.call('updateAutomation', { projectId, name: current.name, ...ruleChange(ruleFlags(), current, ruleContext) });
        print(edited, `Changed automation ${quoted(edited.name)}: ${ruleText(edited)}`);
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
