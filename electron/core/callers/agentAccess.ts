import { entryOf, type CoreMethodName, type METHODS, type MethodName, type MethodResult } from '../../../shared/contract';
import type { HostMethodName } from '../../../shared/contract/host';
import type { DroverEvent } from '../../../shared/events';
import { speaksForSomeone, type AgentCaller, type Caller, type Client, type MethodInput, type Methods } from '../api';
import { fail } from '../errors';
import type { Locator } from '../locate';

/**
 * What a connection that identified as an agent may do with a method its contract entry marks
 * `agents: 'own'`: a check of its params against the agent (its project, its own inbox, its own
 * questions), and what of its result the agent may see. Connections that speak for the person are
 * never restricted here.
 */
interface OwnRule<M extends MethodName> {
  /** Throws (`forbidden`) unless this agent may make the call. */
  check?(params: MethodInput<M>, agent: AgentCaller, locate: Locator): void;
  /** What of the result this agent may see (throws when it may see none of it). */
  shown?(result: MethodResult<M>, agent: AgentCaller): MethodResult<M>;
  /**
   * A long-poll, which may return long after the session it was asked in ended: it is refused then,
   * and what it waited for stays for the next session. Any other call is answered with what it did,
   * so that session does not do it again.
   */
  waits?: true;
}

/** The core's methods an agent may call for what is its own, each needing its rule below. */
type OwnMethodName = { [M in CoreMethodName]: (typeof METHODS)[M]['agents'] extends 'own' ? M : never }[CoreMethodName];

/** Exactly the `own` methods: one marked so without a rule here, or a rule for another, does not compile. */
type OwnRules = { [M in OwnMethodName]: OwnRule<M> };

function forbid(agent: AgentCaller, what: string): never {
  fail('forbidden', `${agent.agentName} acts for itself in its own project only: ${what}.`);
}

/** An identity lasts as long as the session it proved: after that the connection speaks for nobody. */
function refuseEnded(agent: AgentCaller): void {
  const ended = agent.ended();
  if (ended) fail('forbidden', `This connection spoke for ${agent.agentName}, and ${ended}: it speaks for nobody now. Identify again with the proof of a running session.`);
}

function ownProject(agent: AgentCaller, projectId: string): void {
  if (projectId !== agent.projectId) forbid(agent, 'that is another project');
}

const inProject = <M extends MethodName>(projectOf: (params: MethodInput<M>) => string): OwnRule<M> => ({
  check: (params, agent) => ownProject(agent, projectOf(params)),
});

const taskInProject = <M extends MethodName>(taskOf: (params: MethodInput<M>) => string): OwnRule<M> => ({
  check: (params, agent, locate) => {
    if (locate.task(taskOf(params)).store.projectId !== agent.projectId) forbid(agent, 'that task belongs to another project');
  },
});

const agentInProject = <M extends MethodName>(agentOf: (params: MethodInput<M>) => string): OwnRule<M> => ({
  check: (params, agent, locate) => {
    if (locate.agent(agentOf(params)).store.projectId !== agent.projectId) forbid(agent, 'that agent belongs to another project');
  },
});

const itself = <M extends MethodName>(agentOf: (params: MethodInput<M>) => string): OwnRule<M> => ({
  check: (params, agent) => {
    if (agentOf(params) !== agent.agentId) forbid(agent, "another agent's inbox and session are its own");
  },
});

/** A message it sends carries its own name: an agent cannot write as a person or as another agent. */
function sender(agent: AgentCaller, fromAgentId: string | undefined): void {
  if (fromAgentId !== agent.agentId) forbid(agent, 'a message it sends must name it as the sender');
}

const OWN_RULES: OwnRules = {
  getStatus: { shown: (status, agent) => ({ ...status, projects: status.projects.filter((project) => project.id === agent.projectId) }) },
  // Once its identity ended (the session it proved is over), the connection may prove another.
  identifyAgent: {
    check: (_params, agent) => {
      if (agent.ended() === null) forbid(agent, 'this connection already speaks for it');
    },
  },
  listProjects: { shown: (list, agent) => ({ ...list, projects: list.projects.filter((project) => project.id === agent.projectId) }) },
  findProjectByPath: {
    shown: (project, agent) => {
      ownProject(agent, project.id);
      return project;
    },
  },
  getProjectSettings: inProject((params) => params.projectId),
  getWorkState: {
    check: (params, agent) => ownProject(agent, params.projectId),
    // Other agents' inboxes are theirs: only messages to or from this agent.
    shown: (part, agent) => ({ ...part, messages: part.messages.filter((message) => message.agentId === agent.agentId || message.fromAgentId === agent.agentId) }),
  },
  createTask: {
    check: (params, agent, locate) => {
      ownProject(agent, params.projectId);
      // A result lands in its owner's inbox and is typed into its prompt: only its own.
      const owner = params.ownerAgentId && locate.agent(agent.agentId).store.agents.byIdOrName(params.ownerAgentId);
      if (params.ownerAgentId && (!owner || owner.id !== agent.agentId)) forbid(agent, "a task's result goes to the agent that started it");
    },
  },
  listTasks: inProject((params) => params.projectId),
  getTask: taskInProject((params) => params.taskId),
  cancelTask: taskInProject((params) => params.taskId),
  retryTask: taskInProject((params) => params.taskId),
  readTaskOutput: taskInProject((params) => params.taskId),
  watchTaskOutput: taskInProject((params) => params.taskId),
  unwatchTaskOutput: taskInProject((params) => params.taskId),
  ackTaskOutput: taskInProject((params) => params.taskId),
  reportAgentHook: itself((params) => params.agentId),
  listInbox: itself((params) => params.agentId),
  markInboxRead: itself((params) => params.agentId),
  sendMessage: {
    check: (params, agent) => {
      ownProject(agent, params.projectId);
      sender(agent, params.fromAgentId);
    },
  },
  replyToMessage: {
    check: (params, agent, locate) => {
      const { store, message } = locate.message(params.questionId);
      if (store.projectId !== agent.projectId) forbid(agent, 'that question belongs to another project');
      if (message.agentId !== agent.agentId) {
        forbid(agent, `question ${message.id} was asked of ${store.agents.get(message.agentId)?.name ?? message.agentId}, and only it may answer`);
      }
      if (params.fromAgentId !== undefined) sender(agent, params.fromAgentId);
    },
  },
  awaitReply: {
    check: (params, agent, locate) => {
      if (locate.message(params.questionId).message.fromAgentId !== agent.agentId) forbid(agent, 'it may wait only for answers to its own questions');
    },
    waits: true,
  },
  // It waits on the caller's own channel only (the handler takes the agent from the connection).
  awaitChannelWake: { waits: true },
  getProjectGit: inProject((params) => params.projectId),
  listWorktrees: inProject((params) => params.projectId),
  getWorktreeStatus: agentInProject((params) => params.agentId),
  getWorktreeDiff: agentInProject((params) => params.agentId),
  watchWorktree: agentInProject((params) => params.agentId),
  unwatchWorktree: agentInProject((params) => params.agentId),
  checkWorktreeMerge: agentInProject((params) => params.agentId),
  getWorktreeDiskUsage: inProject((params) => params.projectId),
  listOverlaps: inProject((params) => params.projectId),
  listMergeQueue: inProject((params) => params.projectId),
  // An agent may read the checkpoints of its project's agents.
  listTurns: agentInProject((params) => params.agentId),
  getTurnDiff: agentInProject((params) => params.agentId),
  getCheckpointUsage: inProject((params) => params.projectId),
};

type AnyHandler = (params: unknown, client: Client) => unknown;

/** What an agent may do with a method, from its contract entry: nothing, its own rule, or all of it. */
function ruleOf(method: CoreMethodName): OwnRule<MethodName> | 'refused' {
  const { agents } = entryOf(method);
  if (agents === 'refused') return 'refused';
  return agents === 'own' ? (OWN_RULES as Record<OwnMethodName, OwnRule<MethodName>>)[method as OwnMethodName] : {};
}

/**
 * The handlers, each behind its rule for agents: a connection that identified as an agent is
 * checked before the handler runs and sees only what its rule lets through.
 */
export function restrictAgents<N extends CoreMethodName>(handlers: Methods<N>, locate: Locator): Methods<N> {
  const restricted: Partial<Record<N, AnyHandler>> = {};
  for (const method of Object.keys(handlers) as N[]) {
    const handler = handlers[method] as AnyHandler;
    const rule = ruleOf(method);
    restricted[method] = async (params, client) => {
      const caller = client.caller;
      if (caller.kind !== 'agent') return handler(params, client);
      if (method !== 'identifyAgent') refuseEnded(caller);
      if (rule === 'refused') forbid(caller, `${method} is for people, not agents`);
      rule.check?.(params as MethodInput<MethodName>, caller, locate);
      const result = (await handler(params, client)) as MethodResult<MethodName>;
      if (rule.waits) refuseEnded(caller);
      return rule.shown ? rule.shown(result, caller) : result;
    };
  }
  return restricted as Methods<N>;
}

/** Of the host's own methods an agent may call only those its contract entry allows (the greeting). */
export function checkHostMethod(method: HostMethodName, caller: Caller): void {
  if (caller.kind !== 'agent' || entryOf(method).agents === 'allowed') return;
  refuseEnded(caller);
  forbid(caller, `${method} is for people, not agents`);
}

/**
 * Whether an event may be pushed to a client: an agent hears of its own project and its own
 * messages only, and nothing once its identity ended.
 */
export function visibleTo(caller: Caller, event: DroverEvent): boolean {
  if (caller.kind !== 'agent') return true;
  if (event.name === 'appSettingsChanged' || event.projectId !== caller.projectId || !speaksForSomeone(caller)) return false;
  return event.name !== 'agentInboxChanged' || event.message.agentId === caller.agentId || event.message.fromAgentId === caller.agentId;
}
