import type { AgentSession } from '../../shared/entities/sessions';
import { unsentCommentIds } from '../../shared/forge';
import { countOf, listNames } from '../../shared/plural';
import { formatClockTime } from '../format/clockTime';
import { taskOutcome, taskTitle } from '../format/taskPresentation';
import type { Status } from '../format/tone';
import type { AttentionItem, AttentionKind } from '../store/attention';

export interface ItemPresentation {
  status: Status;
  /** Whom or what it is about: the agent's name, the task's title. */
  subject: string;
  /** What the person should know next to it. */
  detail: string;
}

function crashDetail(session: AgentSession): string {
  if (session.endReason?.startsWith('spawn-failed')) return `could not start: ${session.endReason.slice('spawn-failed: '.length)}`;
  return session.exitCode === null ? 'ended by a signal' : `exited with code ${session.exitCode}`;
}

const STATUS: Readonly<Record<AttentionKind, Status>> = {
  'needs-input': { label: 'Needs input', tone: 'needs-input' },
  limited: { label: 'Limited', tone: 'limited' },
  crashed: { label: 'Crashed', tone: 'failed' },
  'task-failed': { label: 'Task failed', tone: 'failed' },
  'task-interrupted': { label: 'Task interrupted', tone: 'interrupted' },
  'checks-failed': { label: 'Checks failed', tone: 'failed' },
  'review-comments': { label: 'Review comments', tone: 'needs-input' },
  'automation-paused': { label: 'Automation paused', tone: 'failed' },
  'agents-conflict': { label: 'Branches conflict', tone: 'failed' },
};

function subjectOf(item: AttentionItem): string {
  if ('agent' in item) return item.agent.name;
  if ('task' in item) return taskTitle(item.task);
  if ('automation' in item) return item.automation.name;
  return item.conflict.agentNames.join(' and ');
}

/** The item's status and whom or what it is about, without what changes with the clock. */
export function itemHeadline(item: AttentionItem): Omit<ItemPresentation, 'detail'> {
  return { status: STATUS[item.kind], subject: subjectOf(item) };
}

function itemDetail(item: AttentionItem, now: number): string {
  switch (item.kind) {
    case 'needs-input':
      return 'waiting for your answer';
    case 'limited': {
      const resetsAt = item.session.limitResetsAt;
      return resetsAt === null ? 'hit a usage limit' : `hit a usage limit, resets ${formatClockTime(resetsAt, now)}`;
    }
    case 'crashed':
      return crashDetail(item.session);
    case 'task-failed':
      return taskOutcome(item.task) ?? item.task.reason ?? 'failed';
    case 'task-interrupted':
      return item.task.reason ?? 'stopped when Drover did';
    case 'checks-failed': {
      const failed = item.link.pullRequest?.checks.filter((check) => check.state === 'failed').map((check) => check.name) ?? [];
      return `#${item.link.pullRequest?.number ?? ''}: ${failed.join(', ')} failed, not sent to ${item.agent.name} yet`;
    }
    case 'review-comments':
      return `#${item.link.pullRequest?.number ?? ''}: ${countOf(unsentCommentIds(item.link).length, 'review comment')} not sent to ${item.agent.name} yet`;
    case 'automation-paused':
      return `paused itself: ${item.automation.pausedReason ?? ''}`;
    case 'agents-conflict':
      return `conflict in ${listNames(item.conflict.conflictFiles)}`;
  }
}

/** What the queue and a notification say about an item. */
export function presentItem(item: AttentionItem, now: number): ItemPresentation {
  return { ...itemHeadline(item), detail: itemDetail(item, now) };
}

/** A notification's words: what happened to whom in its title, where and why in its body. */
export function notificationText(item: AttentionItem, projectName: string, now: number): { title: string; body: string } {
  const { status, subject, detail } = presentItem(item, now);
  const title = 'agent' in item ? `${subject}: ${status.label.toLowerCase()}` : `${status.label}: ${subject}`;
  return { title, body: `${projectName} · ${detail}` };
}
