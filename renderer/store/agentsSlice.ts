import type { MethodParams } from '../../shared/contract';
import type { Agent, FormerAgent } from '../../shared/entities/agents';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { MergeQueueEntry } from '../../shared/entities/mergeQueue';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Wake } from '../../shared/entities/wake';
import type { Worktree } from '../../shared/entities/worktrees';
import type { DroverEvent } from '../../shared/events';
import type { ForgeLink } from '../../shared/forge';
import type { SliceContext, StateCell } from './slice';
import { applyNewer, without } from './versioned';
import { currentWake, updateWorkState, type WorkStates } from './projectWorkState';

export const AGENT_EVENTS = ['agentChanged', 'agentSessionChanged', 'agentInboxChanged', 'agentWakeChanged', 'agentWorktreeChanged', 'agentForgeChanged', 'formerAgentChanged', 'mergeQueueChanged', 'automationChanged', 'conflictNoticeChanged'] as const;
export type AgentEvent = Extract<DroverEvent, { name: (typeof AGENT_EVENTS)[number] }>;

export interface AgentsActions {
  createAgent(params: MethodParams<'createAgent'>): Promise<Agent>;
  updateAgent(params: MethodParams<'updateAgent'>): Promise<Agent>;
  /** Resolves with the branch kept with the agent's work, if its worktree had any. */
  removeAgent(agentId: string, discardWork?: boolean): Promise<string | null>;
  startAgent(agentId: string, resume: boolean): Promise<AgentSession>;
  stopAgent(agentId: string): Promise<AgentSession>;
  restartAgent(agentId: string): Promise<AgentSession>;
  markInboxRead(agentId: string): Promise<void>;
  /** A person saw these messages in the agent's inbox. */
  markInboxSeen(agentId: string, messageIds: string[]): Promise<void>;
  /** A person's note to an agent, delivered by a wake like any message. */
  sendNote(projectId: string, agentId: string, body: string): Promise<InboxMessage>;
  /** Resolves with how many messages were typed in; rejects when the agent is not ready. */
  wakeAgent(agentId: string): Promise<number>;
  holdAgentWakes(agentId: string, hold: boolean): Promise<void>;
  /** Deletes a removed agent's kept branch: refused when it holds work its parent lacks, unless `force` (the person confirmed). */
  deleteKeptBranch(agentId: string, force: boolean): Promise<void>;
  /** Puts the agent's branch last in the merge queue of its parent branch. */
  queueForMerge(agentId: string): Promise<MergeQueueEntry>;
  removeFromMergeQueue(agentId: string): Promise<void>;
  /** A note to each of two agents whose branches conflict: the files, the lines each changes, the other agent. */
  tellOverlapAgents(projectId: string, agents: readonly [string, string]): Promise<InboxMessage[]>;
}

/**
 * Agents, their sessions, inboxes and wakes. They live in each project's work state (one snapshot
 * covers them with the tasks), so this slice writes into the work-state cell and applies the agent
 * events that the work-state slice admits.
 */
export function createAgentsSlice(cell: StateCell<WorkStates>, { bridge }: SliceContext) {
  function putAgent(agent: Agent): Agent {
    updateWorkState(cell, agent.projectId, (slice) => ({ ...slice, agentsById: applyNewer(slice.agentsById, agent.id, agent) }));
    return agent;
  }

  function dropAgent(projectId: string, agentId: string): void {
    updateWorkState(cell, projectId, (slice) => ({
      ...slice,
      agentsById: without(slice.agentsById, agentId),
      sessionsByAgentId: without(slice.sessionsByAgentId, agentId),
      wakesByAgentId: without(slice.wakesByAgentId, agentId),
      worktreesByAgentId: without(slice.worktreesByAgentId, agentId),
      forgeLinksByAgentId: without(slice.forgeLinksByAgentId, agentId),
      mergeQueueByAgentId: without(slice.mergeQueueByAgentId, agentId),
    }));
  }

  function putFormerAgent(agent: FormerAgent): void {
    updateWorkState(cell, agent.projectId, (slice) => ({ ...slice, formerAgentsById: applyNewer(slice.formerAgentsById, agent.id, agent) }));
  }

  function putForgeLink(link: ForgeLink): ForgeLink {
    updateWorkState(cell, link.projectId, (slice) => ({ ...slice, forgeLinksByAgentId: applyNewer(slice.forgeLinksByAgentId, link.agentId, link) }));
    return link;
  }

  function putWorktree(worktree: Worktree): void {
    updateWorkState(cell, worktree.projectId, (slice) => ({ ...slice, worktreesByAgentId: applyNewer(slice.worktreesByAgentId, worktree.agentId, worktree) }));
  }

  function dropWorktree(projectId: string, agentId: string): void {
    updateWorkState(cell, projectId, (slice) => ({ ...slice, worktreesByAgentId: without(slice.worktreesByAgentId, agentId) }));
  }

  function putSession(session: AgentSession): AgentSession {
    updateWorkState(cell, session.projectId, (slice) => ({
      ...slice,
      sessionsByAgentId: applyNewer(slice.sessionsByAgentId, session.agentId, session),
    }));
    return session;
  }

  function putMessage(message: InboxMessage): InboxMessage {
    updateWorkState(cell, message.projectId, (slice) => ({ ...slice, messagesById: applyNewer(slice.messagesById, message.id, message) }));
    return message;
  }

  function putWake(wake: Wake): void {
    updateWorkState(cell, wake.projectId, (slice) => ({
      ...slice,
      wakesByAgentId: { ...slice.wakesByAgentId, [wake.agentId]: currentWake(slice.wakesByAgentId[wake.agentId], wake) },
    }));
  }

  function putQueueEntry(entry: MergeQueueEntry): MergeQueueEntry {
    updateWorkState(cell, entry.projectId, (slice) => ({ ...slice, mergeQueueByAgentId: applyNewer(slice.mergeQueueByAgentId, entry.agentId, entry) }));
    return entry;
  }

  function dropQueueEntry(projectId: string, agentId: string): void {
    updateWorkState(cell, projectId, (slice) => ({ ...slice, mergeQueueByAgentId: without(slice.mergeQueueByAgentId, agentId) }));
  }

  function findAgent(agentId: string): Agent | undefined {
    return Object.values(cell.get())
      .map((slice) => slice.agentsById[agentId])
      .find((found) => found !== undefined);
  }

  const actions: AgentsActions = {
    createAgent: async (params) => putAgent(await bridge.call('createAgent', params)),
    updateAgent: async (params) => putAgent(await bridge.call('updateAgent', params)),
    removeAgent: async (agentId, discardWork = false) => {
      const agent = findAgent(agentId);
      const { keptBranch } = await bridge.call('removeAgent', { agentId, discardWork });
      if (agent) dropAgent(agent.projectId, agentId);
      return keptBranch;
    },
    startAgent: (agentId, resume) => bridge.call('startAgent', { agentId, resume }).then(putSession),
    stopAgent: (agentId) => bridge.call('stopAgent', { agentId }).then(putSession),
    restartAgent: (agentId) => bridge.call('restartAgent', { agentId, resume: true }).then(putSession),
    markInboxRead: (agentId) => bridge.call('markInboxRead', { agentId }).then((read) => read.forEach(putMessage)),
    markInboxSeen: (agentId, messageIds) => bridge.call('markInboxSeen', { agentId, messageIds }).then((seen) => seen.forEach(putMessage)),
    sendNote: (projectId, agentId, body) => bridge.call('sendMessage', { projectId, to: agentId, kind: 'note', body }).then(putMessage),
    wakeAgent: (agentId) => bridge.call('wakeAgent', { agentId }).then((result) => result.delivered),
    holdAgentWakes: (agentId, hold) => bridge.call('holdAgentWakes', { agentId, hold }).then(() => undefined),
    deleteKeptBranch: (agentId, force) => bridge.call('deleteKeptBranch', { agentId, force }).then(putFormerAgent),
    queueForMerge: (agentId) => bridge.call('queueForMerge', { agentId }).then(putQueueEntry),
    tellOverlapAgents: (projectId, [first, second]) => bridge.call('tellOverlapAgents', { projectId, agents: [first, second] }),
    removeFromMergeQueue: async (agentId) => {
      const agent = findAgent(agentId);
      await bridge.call('removeFromMergeQueue', { agentId });
      if (agent) dropQueueEntry(agent.projectId, agentId);
    },
  };

  return {
    actions,
    /** Applies an agent event the work-state slice admitted. */
    apply(event: AgentEvent): void {
      if (event.name === 'agentChanged') {
        if (event.agent) putAgent(event.agent);
        else dropAgent(event.projectId, event.agentId);
      } else if (event.name === 'agentSessionChanged') putSession(event.session);
      else if (event.name === 'agentInboxChanged') putMessage(event.message);
      else if (event.name === 'agentWakeChanged') putWake(event.wake);
      else if (event.name === 'formerAgentChanged') putFormerAgent(event.formerAgent);
      else if (event.name === 'agentForgeChanged') {
        if (event.link) putForgeLink(event.link);
        else updateWorkState(cell, event.projectId, (slice) => ({ ...slice, forgeLinksByAgentId: without(slice.forgeLinksByAgentId, event.agentId) }));
      } else if (event.name === 'mergeQueueChanged') {
        if (event.entry) putQueueEntry(event.entry);
        else dropQueueEntry(event.projectId, event.agentId);
      } else if (event.name === 'automationChanged') {
        const { automation } = event;
        updateWorkState(cell, event.projectId, (slice) => ({
          ...slice,
          automationsById: automation ? applyNewer(slice.automationsById, automation.id, automation) : without(slice.automationsById, event.automationId),
        }));
      } else if (event.name === 'conflictNoticeChanged') {
        const { notice } = event;
        updateWorkState(cell, event.projectId, (slice) => ({
          ...slice,
          conflictNoticesById: notice ? applyNewer(slice.conflictNoticesById, notice.id, notice) : without(slice.conflictNoticesById, event.noticeId),
        }));
      } else if (event.worktree) putWorktree(event.worktree);
      else dropWorktree(event.projectId, event.agentId);
    },
  };
}
