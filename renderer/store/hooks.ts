import { useMemo } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { Project, ProjectSettings } from '../../shared/entities/projects';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Wake } from '../../shared/entities/wake';
import type { ConnectionLoss, ConnectionState } from '../bridge';
import type { AppSettingsSlice } from './appSettingsSlice';
import type { ProfilesSlice } from './profilesSlice';
import type { ProjectsSlice } from './projectsSlice';
import { useValueAfterPaint } from './afterPaint';
import { attentionQueue, countByProject, type AttentionItem } from './attention';
import { agentsInOrder, agentWork, inboxesByAgent, type AgentWork } from './selectors';
import { useDrover } from './StoreContext';
import { EMPTY_WORK_STATE, type WorkStateSlice } from './projectWorkState';
import { entitiesOf } from './versioned';

// What components read from the store. Each hook selects existing references (or derives with
// memoisation), so a component re-renders only when what it shows changed.

const NO_MESSAGES: readonly InboxMessage[] = [];

type AgentRef = Pick<Agent, 'id' | 'projectId'>;

export function useConnection(): ConnectionState {
  return useDrover((state) => state.connection);
}

/** Why the connection is lost; null while it is not. */
export function useConnectionLoss(): ConnectionLoss | null {
  return useDrover((state) => state.connectionLoss);
}

export function useProjects(): ProjectsSlice {
  return useDrover((state) => state.projects);
}

export function useProject(projectId: string | null): Project | undefined {
  return useDrover((state) => (projectId === null ? undefined : state.projects.byId[projectId]));
}

export function useProfiles(): ProfilesSlice {
  return useDrover((state) => state.profiles);
}

export function useAppSettings(): AppSettingsSlice {
  return useDrover((state) => state.appSettings);
}

/** One part of a project's work state; an untracked (or not yet loaded) project reads as empty and loading. */
export function useWorkState<F extends keyof WorkStateSlice>(projectId: string, field: F): WorkStateSlice[F] {
  return useDrover((state) => (state.workStates[projectId] ?? EMPTY_WORK_STATE)[field]);
}

/** The project's agents in the order they were added. */
export function useAgents(projectId: string): readonly Agent[] {
  const agentsById = useWorkState(projectId, 'agentsById');
  return useMemo(() => agentsInOrder(agentsById), [agentsById]);
}

/** The agent's latest session, if it ever had one. */
export function useAgentSession(agent: AgentRef): AgentSession | undefined {
  return useDrover((state) => state.workStates[agent.projectId]?.sessionsByAgentId[agent.id]);
}

/** The agent's current wake: the open one, else the latest. */
export function useAgentWake(agent: AgentRef): Wake | undefined {
  return useDrover((state) => state.workStates[agent.projectId]?.wakesByAgentId[agent.id]);
}

/** The agent's messages, newest first. */
export function useAgentInbox(agent: AgentRef): readonly InboxMessage[] {
  const messagesById = useWorkState(agent.projectId, 'messagesById');
  return useMemo(() => inboxesByAgent(Object.values(messagesById)).get(agent.id) ?? NO_MESSAGES, [messagesById, agent.id]);
}

/** What each agent of the project has going on (unread messages, its tasks), by agent id. */
export function useAgentWork(projectId: string): ReadonlyMap<string, AgentWork> {
  const agents = useAgents(projectId);
  // After the paint like the attention queue: each agent's share of 10,000 tasks can follow it.
  const tasksById = useValueAfterPaint(useWorkState(projectId, 'tasksById'));
  const messagesById = useWorkState(projectId, 'messagesById');
  return useMemo(() => {
    const inboxes = inboxesByAgent(Object.values(messagesById));
    const tasks = entitiesOf(tasksById);
    return new Map(agents.map((agent) => [agent.id, agentWork(agent, tasks, inboxes.get(agent.id), tasksById)]));
  }, [agents, tasksById, messagesById]);
}

/** Every project's settings that have been read. */
export function useSettingsById(): Readonly<Record<string, ProjectSettings>> {
  return useDrover((state) => state.settings.byId);
}

/** The project's settings once read, and why they could not be. */
export function useProjectSettings(projectId: string): { settings: ProjectSettings | undefined; error: string | undefined } {
  const settings = useDrover((state) => state.settings.byId[projectId]);
  const error = useDrover((state) => state.settings.errorById[projectId]);
  return { settings, error };
}

type QueueInputs = Parameters<typeof attentionQueue>;
let lastQueue: { inputs: QueueInputs; queue: readonly AttentionItem[] } | null = null;

/** One queue per change for every component that shows it (the title bar, the palette, each project's badge). */
function sharedAttentionQueue(...inputs: QueueInputs): readonly AttentionItem[] {
  if (!lastQueue || inputs.some((input, index) => input !== lastQueue?.inputs[index])) lastQueue = { inputs, queue: attentionQueue(...inputs) };
  return lastQueue.queue;
}

/** Everything that needs the person, across every project, most urgent first. */
export function useAttentionQueue(): readonly AttentionItem[] {
  // After the paint: it reads every task of every project, and a snapshot's first paint should not wait for it.
  const workStates = useValueAfterPaint(useDrover((state) => state.workStates));
  const projects = useDrover((state) => state.projects.byId);
  const handled = useDrover((state) => state.attention.handled);
  return useMemo(() => sharedAttentionQueue(workStates, projects, handled), [workStates, projects, handled]);
}

/** How many items of the queue each project has. */
export function useAttentionCounts(): ReadonlyMap<string, number> {
  const queue = useAttentionQueue();
  return useMemo(() => countByProject(queue), [queue]);
}
