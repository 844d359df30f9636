import type { AutomationNotice } from '../../shared/automations';
import type { Agent } from '../../shared/entities/agents';
import type { Project } from '../../shared/entities/projects';
import type { ConflictNotice } from '../../shared/overlaps';
import { endedWithError, type AgentSession } from '../../shared/entities/sessions';
import type { Task } from '../../shared/entities/tasks';
import { failedChecksKey, hasUnsentFailure, unsentCommentIds, type ForgeLink } from '../../shared/forge';
import type { WorkStates, WorkStateSlice } from './projectWorkState';
import { entitiesOf, type EntityMap } from './versioned';

/**
 * What needs the person, derived from the work state (never stored): agents that wait for an
 * answer, hit a usage limit or crashed, and failed or interrupted tasks. Each item has a key that
 * names one occurrence, so what the person dismissed or opened stays handled (the keys are kept
 * across reloads) and a new occurrence shows again.
 */
export type AgentAttentionKind = 'needs-input' | 'crashed' | 'limited';
export type TaskAttentionKind = 'task-failed' | 'task-interrupted';
/** An agent's pull request has failed checks or review comments that were not sent to the agent. */
export type ForgeAttentionKind = 'checks-failed' | 'review-comments';
/** An automation failed three times in a row and paused itself. */
export type AutomationAttentionKind = 'automation-paused';
/** Two agents' branches started to conflict (the project's conflict alerts are on). */
export type ConflictAttentionKind = 'agents-conflict';
export type AttentionKind = AgentAttentionKind | TaskAttentionKind | ForgeAttentionKind | AutomationAttentionKind | ConflictAttentionKind;

export interface AgentAttention {
  kind: AgentAttentionKind;
  key: string;
  projectId: string;
  agent: Agent;
  session: AgentSession;
}

export interface TaskAttention {
  kind: TaskAttentionKind;
  key: string;
  projectId: string;
  task: Task;
}

export interface ForgeAttention {
  kind: ForgeAttentionKind;
  key: string;
  projectId: string;
  agent: Agent;
  link: ForgeLink;
}

export interface AutomationAttention {
  kind: AutomationAttentionKind;
  key: string;
  projectId: string;
  automation: AutomationNotice;
}

export interface ConflictAttention {
  kind: ConflictAttentionKind;
  key: string;
  projectId: string;
  conflict: ConflictNotice;
}

export type AttentionItem = AgentAttention | TaskAttention | ForgeAttention | AutomationAttention | ConflictAttention;

/** What is most urgent first: a question blocks an agent outright; a limit only waits for its reset. */
const PRIORITY: Readonly<Record<AttentionKind, number>> = {
  'needs-input': 0,
  crashed: 1,
  'task-failed': 2,
  'task-interrupted': 3,
  'automation-paused': 4,
  'checks-failed': 5,
  'agents-conflict': 6,
  'review-comments': 7,
  limited: 8,
};

/** The kinds worth a notification, and only on a transition into them: never a turn's end, never an interruption by a restart. */
export const NOTIFIED_KINDS: ReadonlySet<AttentionKind> = new Set(['needs-input', 'limited', 'crashed', 'task-failed', 'automation-paused']);

export function attentionKey(kind: AttentionKind, projectId: string, id: string): string {
  return `${kind}:${projectId}:${id}`;
}

/** The project a key belongs to (keys are `kind:projectId:id`). */
export function projectOfKey(key: string): string {
  return key.split(':')[1] ?? '';
}

function sessionKind(session: AgentSession): AgentAttentionKind | null {
  if (session.state === 'exited') return endedWithError(session) ? 'crashed' : null;
  if (session.needsInput) return 'needs-input';
  return session.state === 'limited' ? 'limited' : null;
}

/** What the agent's latest session asks of the person, if anything; one item per agent. */
export function agentAttention(agent: Agent, session: AgentSession | undefined): AgentAttention | null {
  const kind = session ? sessionKind(session) : null;
  if (!session || !kind) return null;
  return { kind, key: attentionKey(kind, agent.projectId, session.id), projectId: agent.projectId, agent, session };
}

export function taskAttention(task: Task): TaskAttention | null {
  const kind = task.state === 'failed' ? 'task-failed' : task.state === 'interrupted' ? 'task-interrupted' : null;
  if (!kind) return null;
  return { kind, key: attentionKey(kind, task.projectId, task.id), projectId: task.projectId, task };
}

/** What the agent's pull request brings for it that it was not sent: failed checks, review comments. */
export function forgeAttention(agent: Agent, link: ForgeLink | undefined): ForgeAttention[] {
  const pullRequest = link?.pullRequest;
  if (!link || !pullRequest) return [];
  const items: ForgeAttention[] = [];
  const failure = hasUnsentFailure(link) ? failedChecksKey(pullRequest) : null;
  if (failure) items.push({ kind: 'checks-failed', key: attentionKey('checks-failed', agent.projectId, `${agent.id}@${failure}`), projectId: agent.projectId, agent, link });
  const unsent = pullRequest.state === 'merged' || pullRequest.state === 'closed' ? [] : unsentCommentIds(link);
  if (unsent.length > 0) {
    items.push({ kind: 'review-comments', key: attentionKey('review-comments', agent.projectId, `${agent.id}@${Math.max(...unsent)}`), projectId: agent.projectId, agent, link });
  }
  return items;
}

/** An automation that paused itself (one the person paused has no reason): one item per pause. */
export function automationAttention(automation: AutomationNotice): AutomationAttention | null {
  if (automation.enabled || automation.pausedReason === null) return null;
  return { kind: 'automation-paused', key: attentionKey('automation-paused', automation.projectId, `${automation.id}@${automation.seq}`), projectId: automation.projectId, automation };
}

/** Two agents whose branches started to conflict: one item each time they start to. */
export function conflictAttention(conflict: ConflictNotice): ConflictAttention {
  return { kind: 'agents-conflict', key: attentionKey('agents-conflict', conflict.projectId, `${conflict.id}@${conflict.seq}`), projectId: conflict.projectId, conflict };
}

/** Every item of one project, handled or not; a task retried since (by anyone) is handled. */
function projectItems(slice: WorkStateSlice): AttentionItem[] {
  const items: AttentionItem[] = [];
  const agents = Object.values(slice.agentsById).sort((a, b) => a.createdAt - b.createdAt);
  for (const agent of agents) {
    const item = agentAttention(agent, slice.sessionsByAgentId[agent.id]);
    if (item) items.push(item);
    items.push(...forgeAttention(agent, slice.forgeLinksByAgentId[agent.id]));
  }
  // Plain loops: this runs over every task of a snapshot (10,000 of them) before its first paint.
  const tasks = entitiesOf(slice.tasksById);
  const retried = new Set<string>();
  for (const task of tasks) if (task.retryOf !== null) retried.add(task.retryOf);
  const taskItems: TaskAttention[] = [];
  for (const task of tasks) {
    const item = retried.has(task.id) ? null : taskAttention(task);
    if (item) taskItems.push(item);
  }
  taskItems.sort((a, b) => (a.task.endedAt ?? 0) - (b.task.endedAt ?? 0));
  for (const automation of Object.values(slice.automationsById)) {
    const item = automationAttention(automation);
    if (item) items.push(item);
  }
  for (const conflict of Object.values(slice.conflictNoticesById)) items.push(conflictAttention(conflict));
  return [...items, ...taskItems];
}

// A project's items change only when its slice does; every other project's are reused.
const itemsCache = new WeakMap<WorkStateSlice, AttentionItem[]>();

function cachedProjectItems(slice: WorkStateSlice): AttentionItem[] {
  let items = itemsCache.get(slice);
  if (!items) {
    items = projectItems(slice);
    itemsCache.set(slice, items);
  }
  return items;
}

/** The keys that are active now, handled or not, in the projects whose work state has loaded. */
export function activeKeys(workStates: WorkStates): Set<string> {
  const keys = new Set<string>();
  for (const slice of Object.values(workStates)) for (const item of cachedProjectItems(slice)) keys.add(item.key);
  return keys;
}

/**
 * The handled keys worth keeping: those still active, and those of projects whose work state has
 * not loaded yet (nothing is known of them). The rest ended: the agent went busy again, the limit
 * reset, the task was retried or deleted; should it happen again, it needs the person again.
 */
export function keptHandledKeys(handled: ReadonlySet<string>, workStates: WorkStates, projects: EntityMap<Project>, projectsLoaded: boolean): ReadonlySet<string> {
  // Nothing handled, nothing to drop: a snapshot's 10,000 tasks are not read for it before their first paint.
  if (handled.size === 0) return handled;
  const active = activeKeys(workStates);
  const kept = [...handled].filter((key) => {
    if (active.has(key)) return true;
    const projectId = projectOfKey(key);
    if (!projects[projectId]) return !projectsLoaded;
    return workStates[projectId]?.status !== 'ready';
  });
  return kept.length === handled.size ? handled : new Set(kept);
}

function projectName(projects: EntityMap<Project>, projectId: string): string {
  return projects[projectId]?.name ?? projectId;
}

// One collator for every comparison: localeCompare with options builds one per call, which made
// sorting a queue of thousands of failed tasks take a tenth of a second.
const byName = new Intl.Collator(undefined, { sensitivity: 'base' });

/** The queue across every project: most urgent first, then by project name, then in each project's order. */
export function attentionQueue(workStates: WorkStates, projects: EntityMap<Project>, handled: ReadonlySet<string>): AttentionItem[] {
  const items = Object.entries(workStates)
    .filter(([projectId]) => projects[projectId] !== undefined)
    .flatMap(([, slice]) => cachedProjectItems(slice).filter((item) => !handled.has(item.key)));
  // Array sort is stable: items that compare equal keep their project's order.
  return items.sort(
    (a, b) =>
      PRIORITY[a.kind] - PRIORITY[b.kind] ||
      (a.projectId === b.projectId ? 0 : byName.compare(projectName(projects, a.projectId), projectName(projects, b.projectId))),
  );
}

/** Most urgent first; items equally urgent keep their order (Array sort is stable). */
export function byUrgency(a: AttentionItem, b: AttentionItem): number {
  return PRIORITY[a.kind] - PRIORITY[b.kind];
}

/** How many items each project has in the queue. */
export function countByProject(queue: readonly AttentionItem[]): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  for (const item of queue) counts.set(item.projectId, (counts.get(item.projectId) ?? 0) + 1);
  return counts;
}

/**
 * The item a live change raised, if any: one that appeared with a new key on this change (an agent
 * moved into needs input, a limit or a crash; a task failed). A turn ending, the same state again,
 * or what a snapshot reveals after a reload raise nothing.
 */
export function raisedItem(before: WorkStateSlice | undefined, after: WorkStateSlice, change: { agentId: string } | { taskId: string }): AttentionItem | null {
  const items = 'taskId' in change ? taskItems(before, after, change.taskId) : agentItems(before, after, change.agentId);
  if (!items) return null;
  const { previous, next } = items;
  if (!next || !NOTIFIED_KINDS.has(next.kind) || next.key === previous?.key) return null;
  return next;
}

interface ItemChange {
  previous: AttentionItem | null;
  next: AttentionItem | null;
}

/** The task's item before and after a change; null when the change left the task as it was. */
function taskItems(before: WorkStateSlice | undefined, after: WorkStateSlice, taskId: string): ItemChange | null {
  const task = after.tasksById[taskId];
  const known = before?.tasksById[taskId];
  if (!task || task === known) return null;
  return { previous: known ? taskAttention(known) : null, next: taskAttention(task) };
}

/** The agent's item before and after a change of its session; null when the session stayed as it was. */
function agentItems(before: WorkStateSlice | undefined, after: WorkStateSlice, agentId: string): ItemChange | null {
  const agent = after.agentsById[agentId];
  const session = after.sessionsByAgentId[agentId];
  const known = before?.sessionsByAgentId[agentId];
  if (!agent || !session || session === known) return null;
  return { previous: agentAttention(agent, known), next: agentAttention(agent, session) };
}

/** The item after the one the person jumped to last (wrapping round); the first when there was none. */
export function nextItem(queue: readonly AttentionItem[], last: { key: string; index: number } | null): { item: AttentionItem; index: number } | null {
  if (queue.length === 0) return null;
  const at = last ? queue.findIndex((item) => item.key === last.key) : -1;
  // The last one was handled and left: what stood after it now stands at its place.
  const index = at >= 0 ? (at + 1) % queue.length : last ? last.index % queue.length : 0;
  const item = queue[index];
  return item ? { item, index } : null;
}
