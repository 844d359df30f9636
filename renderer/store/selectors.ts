import type { Agent, FormerAgent } from '../../shared/entities/agents';
import type { InboxMessage } from '../../shared/entities/inbox';
import { isTaskFinished, type Task } from '../../shared/entities/tasks';
import type { Worktree } from '../../shared/entities/worktrees';
import { isInside } from '../../shared/folders';
import type { EntityMap } from './versioned';

// Derived views of the store's entities, as pure functions (the hooks of hooks.ts memoise them).

/** Not yet seen by a person in the agent's inbox: what the pane counts, and the inbox calls new. */
export function isNew(message: Pick<InboxMessage, 'seenAt'>): boolean {
  return message.seenAt === null;
}

function newestMessageFirst(a: InboxMessage, b: InboxMessage): number {
  return b.createdAt - a.createdAt || b.seq - a.seq;
}

/** Each agent's messages, newest first. */
export function inboxesByAgent(messages: Iterable<InboxMessage>): ReadonlyMap<string, readonly InboxMessage[]> {
  const byAgent = new Map<string, InboxMessage[]>();
  for (const message of messages) {
    const inbox = byAgent.get(message.agentId);
    if (inbox) inbox.push(message);
    else byAgent.set(message.agentId, [message]);
  }
  for (const inbox of byAgent.values()) inbox.sort(newestMessageFirst);
  return byAgent;
}

/** The project's agents in the order they were added (their panes' order). */
export function agentsInOrder(agentsById: Readonly<Record<string, Agent>>): Agent[] {
  return Object.values(agentsById).sort((a, b) => a.createdAt - b.createdAt);
}

export interface AgentWork {
  /** Messages new to the person (not yet seen in the agent's inbox). */
  newMessages: number;
  queued: number;
  running: number;
  /** Finished tasks whose result is new to the person. */
  newResults: readonly Task[];
}

export const NO_WORK: AgentWork = { newMessages: 0, queued: 0, running: 0, newResults: [] };

/**
 * What each agent's pane header counts. A task names its owner by agent id or by name; its result
 * message points back at it through `taskId`.
 */
export function agentWork(
  agent: Agent,
  tasks: readonly Task[],
  inbox: readonly InboxMessage[] | undefined,
  tasksById: Readonly<Record<string, Task>>,
): AgentWork {
  const owned = tasks.filter((task) => task.ownerAgentId === agent.id || task.ownerAgentId === agent.name);
  const fresh = (inbox ?? []).filter(isNew);
  const newResults = fresh
    .map((message) => (message.kind === 'task-result' && message.taskId ? tasksById[message.taskId] : undefined))
    .filter((task): task is Task => task !== undefined && isTaskFinished(task.state));
  const work = {
    newMessages: fresh.length,
    queued: owned.filter((task) => task.state === 'queued').length,
    running: owned.filter((task) => task.state === 'running' || task.state === 'cancelling').length,
    newResults,
  };
  return work.newMessages + work.queued + work.running === 0 ? NO_WORK : work;
}

/** The branch of the agent worktree a task runs in, if it runs in one. */
export function branchOfFolder(folder: string, worktrees: Iterable<Worktree>): string | null {
  for (const worktree of worktrees) {
    if (isInside(worktree.path, folder)) return worktree.branch;
  }
  return null;
}

/** The removed agent whose worktree (gone with it) held this folder: a task there cannot run again. */
export function removedWorktreeOf(folder: string, formerAgents: Iterable<FormerAgent>): FormerAgent | null {
  for (const agent of formerAgents) {
    if (agent.worktreePath !== null && isInside(agent.worktreePath, folder)) return agent;
  }
  return null;
}

/** Why a finished task cannot run again (its folder went with a removed agent's worktree), or null. */
export function retryRefusal(task: Pick<Task, 'cwd'>, formerAgents: Iterable<FormerAgent>): string | null {
  const former = removedWorktreeOf(task.cwd, formerAgents);
  return former && `Its folder went with ${former.name}'s worktree when the agent was removed`;
}

/** A task's owner as a person knows it: a current agent's name, a removed one's, else what the task says. */
export function ownerNameOf(task: Pick<Task, 'ownerAgentId'>, agentsById: EntityMap<Agent>, formerAgentsById: EntityMap<FormerAgent>): string | null {
  if (!task.ownerAgentId) return null;
  const former = formerAgentsById[task.ownerAgentId];
  return agentsById[task.ownerAgentId]?.name ?? (former ? `${former.name} (removed)` : task.ownerAgentId);
}
