import { DEFAULT_CATCH_UP_MS, DEFAULT_DAILY_CAP, type Automation } from '../../shared/automations';
import type { MethodParams } from '../../shared/contract';

type NewAutomation = MethodParams<'addAutomation'>;
/** What the form sets of a rule: all of it but its name. */
export type AutomationRule = Required<Omit<NewAutomation, 'projectId' | 'name'>>;

const MINUTE_MS = 60_000;

/** What the add form offers as a trigger: a schedule, or one of the events (a task's outcome is its own choice). */
export const TRIGGER_CHOICES = [
  { value: 'schedule', label: 'On a schedule (cron)' },
  { value: 'task-failed', label: 'A task with a label failed' },
  { value: 'task-succeeded', label: 'A task with a label succeeded' },
  { value: 'task-ended', label: 'A task with a label ended' },
  { value: 'agent-failed', label: 'An agent failed' },
  { value: 'issue-labelled', label: 'An issue was labelled' },
  { value: 'issue-opened', label: 'An issue was opened' },
  { value: 'check-failed', label: 'A check failed on a branch' },
  { value: 'changes-requested', label: "Changes were requested on an agent's pull request" },
] as const;
export type TriggerChoice = (typeof TRIGGER_CHOICES)[number]['value'];

export const ACTION_CHOICES = [
  { value: 'task', label: 'Run a task' },
  { value: 'message', label: 'Send a message to an agent' },
  { value: 'agent', label: 'Start an agent' },
] as const;
export type ActionChoice = (typeof ACTION_CHOICES)[number]['value'];

/** The form's fields as typed; only those of the chosen trigger and action are read. */
export interface AutomationDraft {
  name: string;
  trigger: TriggerChoice;
  cron: string;
  /** A task's label, an issue's label, a check's branch or an agent's name: the one word the trigger names. */
  word: string;
  action: ActionChoice;
  command: string;
  /** The task's folder, relative to the project's (or its owner's worktree); empty: that folder itself. */
  cwd: string;
  /** The agent that owns the task; empty: none. */
  owner: string;
  agent: string;
  text: string;
  profileId: string;
  prompt: string;
  base: string;
  dailyCap: string;
  catchUpMinutes: string;
}

export const EMPTY_DRAFT: AutomationDraft = {
  name: '',
  trigger: 'schedule',
  cron: '',
  word: '',
  action: 'task',
  command: '',
  cwd: '',
  owner: '',
  agent: '',
  text: '',
  profileId: '',
  prompt: '',
  base: '',
  dailyCap: String(DEFAULT_DAILY_CAP),
  catchUpMinutes: String(DEFAULT_CATCH_UP_MS / MINUTE_MS),
};

/** What the trigger's one word is called in the form, or null when the trigger names none. */
export function triggerWordLabel(trigger: TriggerChoice): { label: string; optional: boolean } | null {
  if (trigger === 'task-failed' || trigger === 'task-succeeded' || trigger === 'task-ended') return { label: 'Task label', optional: false };
  if (trigger === 'issue-labelled') return { label: 'Issue label', optional: false };
  if (trigger === 'check-failed') return { label: 'Branch', optional: false };
  if (trigger === 'agent-failed') return { label: 'Failing agent', optional: true };
  return null;
}

function triggerOf(draft: AutomationDraft, timeZone: string): NewAutomation['trigger'] {
  const word = draft.word.trim();
  switch (draft.trigger) {
    case 'schedule':
      return { kind: 'schedule', cron: draft.cron.trim(), timeZone };
    case 'task-failed':
      return { kind: 'task-ended', label: word, outcome: 'failed' };
    case 'task-succeeded':
      return { kind: 'task-ended', label: word, outcome: 'succeeded' };
    case 'task-ended':
      return { kind: 'task-ended', label: word, outcome: 'any' };
    case 'agent-failed':
      return { kind: 'agent-failed', agent: word || null };
    case 'issue-labelled':
      return { kind: 'issue-labelled', label: word };
    case 'check-failed':
      return { kind: 'check-failed', branch: word };
    case 'issue-opened':
    case 'changes-requested':
      return { kind: draft.trigger };
  }
}

function actionOf(draft: AutomationDraft): NewAutomation['action'] {
  switch (draft.action) {
    case 'task':
      return { kind: 'task', command: draft.command.trim(), cwd: draft.cwd.trim() || null, owner: draft.owner.trim() || null };
    case 'message':
      return { kind: 'message', agent: draft.agent.trim(), text: draft.text };
    case 'agent':
      return { kind: 'agent', profileId: draft.profileId, prompt: draft.prompt, base: draft.base.trim() || null };
  }
}

/** A whole number the person typed, refused in the words `drover automation add` uses for its flag. */
function wholeNumber(typed: string, label: string): number {
  const text = typed.trim();
  if (!/^\d+$/.test(text)) throw new Error(`${label} takes a whole number (not "${typed}")`);
  return Number(text);
}

/** The rule the form asks for (a schedule read in `timeZone`); throws, in words, on a cap or window that is no whole number. */
export function ruleOf(draft: AutomationDraft, timeZone: string): AutomationRule {
  return {
    trigger: triggerOf(draft, timeZone),
    action: actionOf(draft),
    dailyCap: wholeNumber(draft.dailyCap, 'Daily cap'),
    catchUpMs: wholeNumber(draft.catchUpMinutes, 'Catch-up window') * MINUTE_MS,
  };
}

/** The addAutomation call the form asks for; a schedule runs in the person's time zone. */
export function newAutomationOf(projectId: string, draft: AutomationDraft, timeZone: string): NewAutomation {
  return { projectId, name: draft.name.trim(), ...ruleOf(draft, timeZone) };
}

function triggerChoiceOf(trigger: Automation['trigger']): { trigger: TriggerChoice; cron: string; word: string } {
  const none = { cron: '', word: '' };
  switch (trigger.kind) {
    case 'schedule':
      return { trigger: 'schedule', cron: trigger.cron, word: '' };
    case 'task-ended':
      return { ...none, trigger: trigger.outcome === 'any' ? 'task-ended' : trigger.outcome === 'failed' ? 'task-failed' : 'task-succeeded', word: trigger.label };
    case 'agent-failed':
      return { ...none, trigger: 'agent-failed', word: trigger.agent ?? '' };
    case 'issue-labelled':
      return { ...none, trigger: 'issue-labelled', word: trigger.label };
    case 'check-failed':
      return { ...none, trigger: 'check-failed', word: trigger.branch };
    case 'issue-opened':
    case 'changes-requested':
      return { ...none, trigger: trigger.kind };
  }
}

/** The form filled in with an automation's rule, to edit it. */
export function draftOf(automation: Automation): AutomationDraft {
  const { action } = automation;
  return {
    ...EMPTY_DRAFT,
    name: automation.name,
    ...triggerChoiceOf(automation.trigger),
    action: action.kind,
    ...(action.kind === 'task' && { command: action.command, cwd: action.cwd ?? '', owner: action.owner ?? '' }),
    ...(action.kind === 'message' && { agent: action.agent, text: action.text }),
    ...(action.kind === 'agent' && { profileId: action.profileId, prompt: action.prompt, base: action.base ?? '' }),
    dailyCap: String(automation.dailyCap),
    catchUpMinutes: String(automation.catchUpMs / MINUTE_MS),
  };
}
