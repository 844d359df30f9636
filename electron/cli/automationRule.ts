import type { Automation } from '../../shared/automations';
import type { MethodParams } from '../../shared/contract';
import { quoted } from './terminalText';
import { UsageError } from './usage';

type NewAutomation = MethodParams<'addAutomation'>;
type AutomationChange = Omit<MethodParams<'updateAutomation'>, 'projectId' | 'name'>;
type Action = NewAutomation['action'];

/** The rule's flags as given on the command line (`add` and `edit` take the same). */
export interface RuleFlags {
  cron?: string | undefined;
  on?: string | undefined;
  timeZone?: string | undefined;
  task?: string | undefined;
  cwd?: string | undefined;
  owner?: string | undefined;
  message?: string | undefined;
  text?: string | undefined;
  agent?: string | undefined;
  prompt?: string | undefined;
  base?: string | undefined;
  dailyCap?: string | undefined;
  catchUpMinutes?: string | undefined;
}

export interface RuleContext {
  /** Where a schedule's hours are read when no --time-zone says. */
  timeZone: string;
  /** --cwd as the host should read it. */
  folder(given: string): string;
}

const TASK_EVENTS: Record<string, 'succeeded' | 'failed' | 'any'> = { 'task-succeeded': 'succeeded', 'task-failed': 'failed', 'task-ended': 'any' };
const EVENTS = 'issue-labelled=LABEL, issue-opened, check-failed=BRANCH, changes-requested, agent-failed[=AGENT], task-succeeded=LABEL, task-failed=LABEL or task-ended=LABEL';
const ACTIONS = '--task CMD, --agent PROFILE --prompt TEXT or --message AGENT --text TEXT';
/** The flag that names each kind of action. */
const KIND_FLAGS = { task: 'task', message: 'message', agent: 'agent' } as const satisfies Record<Action['kind'], keyof RuleFlags>;
const KIND_USAGE: Record<Action['kind'], string> = { task: '--task CMD', message: '--message AGENT', agent: '--agent PROFILE' };
/** The flags that shape an action, and the kind of action each goes with. */
const SHAPING_FLAGS = { cwd: 'task', owner: 'task', text: 'message', prompt: 'agent', base: 'agent' } as const satisfies Partial<Record<keyof RuleFlags, Action['kind']>>;

/** --on EVENT: issue-labelled=LABEL | issue-opened | check-failed=BRANCH | changes-requested | agent-failed[=AGENT] | task-succeeded=LABEL | task-failed=LABEL | task-ended=LABEL. */
function eventTrigger(event: string): NewAutomation['trigger'] {
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

function positiveNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`${option} takes a whole number (not ${quoted(text)})`);
  return Number(text);
}

/** The action kind the flags name (--task, --agent or --message), if any. */
function namedKind(flags: RuleFlags): Action['kind'] | undefined {
  const named = (Object.keys(KIND_FLAGS) as Action['kind'][]).filter((kind) => flags[KIND_FLAGS[kind]] !== undefined);
  if (named.length > 1) throw new UsageError(`An automation takes one action: ${ACTIONS}`);
  return named[0];
}

/**
 * The action the flags give, over `current` when it is of the same kind (an edit): a flag left out
 * keeps what the rule had, and an empty --cwd, --owner or --base goes back to the default.
 */
function actionOf(flags: RuleFlags, kind: Action['kind'], current: Action | undefined, context: RuleContext): Action {
  for (const [flag, goesWith] of Object.entries(SHAPING_FLAGS)) {
    if (goesWith !== kind && flags[flag as keyof typeof SHAPING_FLAGS] !== undefined) throw new UsageError(`--${flag} goes with ${KIND_USAGE[goesWith]} (this action is ${KIND_USAGE[kind]})`);
  }
  const optional = (given: string | undefined, kept: string | null | undefined, read: (value: string) => string = (value) => value) => (given === undefined ? (kept ?? null) : given === '' ? null : read(given));
  if (kind === 'task') {
    const kept = current?.kind === 'task' ? current : undefined;
    const command = flags.task ?? kept?.command;
    if (command === undefined) throw new UsageError(`An automation takes one action: ${ACTIONS}`);
    return { kind: 'task', command, cwd: optional(flags.cwd, kept?.cwd, context.folder), owner: optional(flags.owner, kept?.owner) };
  }
  if (kind === 'message') {
    const kept = current?.kind === 'message' ? current : undefined;
    const text = flags.text ?? kept?.text;
    if (text === undefined) throw new UsageError('--message AGENT needs the message: --text TEXT');
    return { kind: 'message', agent: flags.message ?? kept?.agent ?? '', text };
  }
  const kept = current?.kind === 'agent' ? current : undefined;
  const prompt = flags.prompt ?? kept?.prompt;
  if (prompt === undefined) throw new UsageError('--agent PROFILE needs its first prompt: --prompt TEXT');
  return { kind: 'agent', profileId: flags.agent ?? kept?.profileId ?? '', prompt, base: optional(flags.base, kept?.base) };
}

function limitsOf(flags: RuleFlags): Pick<AutomationChange, 'dailyCap' | 'catchUpMs'> {
  const catchUpMinutes = positiveNumber(flags.catchUpMinutes, '--catch-up-minutes');
  return { dailyCap: positiveNumber(flags.dailyCap, '--daily-cap'), catchUpMs: catchUpMinutes === undefined ? undefined : catchUpMinutes * 60_000 };
}

/** `drover automation add`: one trigger and one action, from the flags alone. */
export function newRule(flags: RuleFlags, context: RuleContext): Omit<NewAutomation, 'projectId' | 'name'> {
  if ((flags.cron === undefined) === (flags.on === undefined)) throw new UsageError('drover automation add takes one trigger: --cron EXPR or --on EVENT');
  const kind = namedKind(flags);
  if (kind === undefined) throw new UsageError(`drover automation add takes one action: ${ACTIONS}`);
  return {
    trigger: flags.cron !== undefined ? { kind: 'schedule', cron: flags.cron, timeZone: flags.timeZone ?? context.timeZone } : eventTrigger(flags.on!),
    action: actionOf(flags, kind, undefined, context),
    ...limitsOf(flags),
  };
}

/** `drover automation edit`: only what the flags give changes; a new schedule keeps the rule's time zone unless --time-zone says. */
export function ruleChange(flags: RuleFlags, current: Automation, context: RuleContext): AutomationChange {
  if (flags.cron !== undefined && flags.on !== undefined) throw new UsageError('An automation takes one trigger: --cron EXPR or --on EVENT');
  const keptZone = current.trigger.kind === 'schedule' ? current.trigger.timeZone : context.timeZone;
  let trigger: AutomationChange['trigger'];
  if (flags.cron !== undefined) trigger = { kind: 'schedule', cron: flags.cron, timeZone: flags.timeZone ?? keptZone };
  else if (flags.on !== undefined) trigger = eventTrigger(flags.on);
  else if (flags.timeZone !== undefined) {
    if (current.trigger.kind !== 'schedule') throw new UsageError(`--time-zone goes with a schedule (--cron EXPR), and ${current.name} runs on an event`);
    trigger = { ...current.trigger, timeZone: flags.timeZone };
  }
  const kind = namedKind(flags) ?? current.action.kind;
  const actionGiven = [...Object.values(KIND_FLAGS), ...Object.keys(SHAPING_FLAGS)].some((flag) => flags[flag as keyof RuleFlags] !== undefined);
  const change: AutomationChange = { trigger, action: actionGiven ? actionOf(flags, kind, current.action, context) : undefined, ...limitsOf(flags) };
  if (Object.values(change).every((value) => value === undefined)) {
    throw new UsageError(`drover automation edit needs something to change: --cron, --on, --time-zone, ${ACTIONS}, --cwd, --owner, --base, --daily-cap or --catch-up-minutes`);
  }
  return change;
}
