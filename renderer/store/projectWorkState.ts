import type { Agent, FormerAgent } from '../../shared/entities/agents';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { AutomationNotice } from '../../shared/automations';
import type { MergeQueueEntry } from '../../shared/entities/mergeQueue';
import type { ConflictNotice } from '../../shared/overlaps';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Task } from '../../shared/entities/tasks';
import type { Wake } from '../../shared/entities/wake';
import type { ProjectWorkState } from '../../shared/entities/workState';
import type { Worktree } from '../../shared/entities/worktrees';
import type { MethodResult } from '../../shared/contract';
import type { ForgeLink } from '../../shared/forge';
import type { Bridge } from '../bridge';
import { PERFORMANCE_MARKS, type WorkStateMarkDetail } from '../../shared/performanceMarks';
import type { Loadable, StateCell } from './slice';
import { byKey, type EntityMap } from './versioned';

/** One tracked project's work state, as one `getWorkState` snapshot (one seq) and its events fill it. */
export interface WorkStateSlice extends Loadable {
  tasksById: EntityMap<Task>;
  agentsById: EntityMap<Agent>;
  /** The latest session of each agent that has one, keyed by agent id. */
  sessionsByAgentId: EntityMap<AgentSession>;
  messagesById: EntityMap<InboxMessage>;
  /** Each agent's current wake: the open one, else the latest. */
  wakesByAgentId: EntityMap<Wake>;
  /** The worktree of each agent that has one of its own. */
  worktreesByAgentId: EntityMap<Worktree>;
  /** Each agent's issue and pull request, where it has one. */
  forgeLinksByAgentId: EntityMap<ForgeLink>;
  /** Removed agents (their tasks still name them; a branch may be kept with their work). */
  formerAgentsById: EntityMap<FormerAgent>;
  /** Each agent's entry in the merge queue of its parent branch, where it has one. */
  mergeQueueByAgentId: EntityMap<MergeQueueEntry>;
  automationsById: EntityMap<AutomationNotice>;
  /** Pairs of agents whose branches started to conflict, by the pair's id. */
  conflictNoticesById: EntityMap<ConflictNotice>;
}

/** Only for projects someone asked to track, keyed by project id. */
export type WorkStates = Readonly<Record<string, WorkStateSlice>>;

export const EMPTY_WORK_STATE: WorkStateSlice = {
  status: 'loading',
  error: null,
  errorCode: null,
  tasksById: {},
  agentsById: {},
  sessionsByAgentId: {},
  messagesById: {},
  wakesByAgentId: {},
  worktreesByAgentId: {},
  forgeLinksByAgentId: {},
  formerAgentsById: {},
  mergeQueueByAgentId: {},
  automationsById: {},
  conflictNoticesById: {},
};

/** Applies `update` to one project's work state (an untracked project starts empty). */
export function updateWorkState(cell: StateCell<WorkStates>, projectId: string, update: (slice: WorkStateSlice) => WorkStateSlice): void {
  cell.set((workStates) => {
    const slice = workStates[projectId] ?? EMPTY_WORK_STATE;
    const next = update(slice);
    return next === slice && workStates[projectId] ? workStates : { ...workStates, [projectId]: next };
  });
}

/** Wakes of one agent follow each other (a new one opens only once the last closed). */
export function currentWake(known: Wake | undefined, incoming: Wake): Wake {
  if (!known) return incoming;
  if (known.id === incoming.id) return known.seq > incoming.seq ? known : incoming;
  return incoming.createdAt >= known.createdAt ? incoming : known;
}

export function workStateFromSnapshot(snapshot: ProjectWorkState): WorkStateSlice {
  return {
    status: 'ready',
    error: null,
    errorCode: null,
    tasksById: byKey(snapshot.tasks, (task) => task.id),
    agentsById: byKey(snapshot.agents, (agent) => agent.id),
    sessionsByAgentId: byKey(snapshot.sessions, (session) => session.agentId),
    messagesById: byKey(snapshot.messages, (message) => message.id),
    wakesByAgentId: snapshot.wakes.reduce<Record<string, Wake>>((byAgent, wake) => {
      byAgent[wake.agentId] = currentWake(byAgent[wake.agentId], wake);
      return byAgent;
    }, {}),
    worktreesByAgentId: byKey(snapshot.worktrees, (worktree) => worktree.agentId),
    forgeLinksByAgentId: byKey(snapshot.forgeLinks, (link) => link.agentId),
    formerAgentsById: byKey(snapshot.formerAgents, (agent) => agent.id),
    mergeQueueByAgentId: byKey(snapshot.mergeQueue, (entry) => entry.agentId),
    automationsById: byKey(snapshot.automations, (automation) => automation.id),
    conflictNoticesById: byKey(snapshot.conflictNotices, (notice) => notice.id),
  };
}

/**
 * A project's whole snapshot, read in the parts the host sends (it pages large work states): the
 * first part's seq and agents, and the tasks and messages of every part. Versions newer than that
 * seq in later parts are real ones, and the events that follow carry them too.
 */
export async function fetchWorkState(bridge: Pick<Bridge, 'call'>, projectId: string): Promise<ProjectWorkState> {
  const first = await bridge.call('getWorkState', { projectId });
  const rest: MethodResult<'getWorkState'>[] = [];
  for (let after = first.next; after; ) {
    const part = await bridge.call('getWorkState', { projectId, after });
    rest.push(part);
    after = part.next;
  }
  // One concat per list: no copy of the first part's 10,000 tasks item by item.
  const tasks = first.tasks.concat(...rest.map((part) => part.tasks));
  const messages = first.messages.concat(...rest.map((part) => part.messages));
  performance.mark(PERFORMANCE_MARKS.workStateSnapshot, { detail: { projectId, tasks: tasks.length } satisfies WorkStateMarkDetail });
  return { ...first, tasks, messages };
}
