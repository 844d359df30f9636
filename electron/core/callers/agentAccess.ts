import type { CoreMethodName, MethodName, MethodResult } from '../../../shared/contract';
import type { HostMethodName } from '../../../shared/contract/host';
import type { DroverEvent } from '../../../shared/events';
import { speaksForSomeone, type AgentCaller, type Caller, type Client, type MethodInput, type Methods } from '../api';
import { fail } from '../errors';
import type { Locator } from '../locate';

/**
 * What a connection that identified as an agent may do: each method either is for people only, or
 * has a check of its params against the agent (its project, its own inbox, its own questions) and
 * may trim its result. The table covers every method of the contract, so a new method cannot be
 * added without deciding what agents may do with it. Connections that speak for the person are
 * never restricted here.
 */
interface AgentRule<M extends MethodName> {
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

type AgentAccess = { [M in CoreMethodName]: AgentRule<M> | 'person-only' };

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

const inProject = <M extends MethodName>(projectOf: (params: MethodInput<M>) => string): AgentRule<M> => ({
  check: (params, agent) => ownProject(agent, projectOf(params)),
});

const taskInProject = <M extends MethodName>(taskOf: (params: MethodInput<M>) => string): AgentRule<M> => ({
  check: (params, agent, locate) => {
    if (locate.task(taskOf(params)).store.projectId !== agent.projectId) forbid(agent, 'that task belongs to another project');
  },
});

const agentInProject = <M extends MethodName>(agentOf: (params: MethodInput<M>) => string): AgentRule<M> => ({
  check: (params, agent, locate) => {
    if (locate.agent(agentOf(params)).store.projectId !== agent.projectId) forbid(agent, 'that agent belongs to another project');
  },
});

const itself = <M extends MethodName>(agentOf: (params: MethodInput<M>) => string): AgentRule<M> => ({
  check: (params, agent) => {
    if (agentOf(params) !== agent.agentId) forbid(agent, "another agent's inbox and session are its own");
  },
});

/** A message it sends carries its own name: an agent cannot write as a person or as another agent. */
function sender(agent: AgentCaller, fromAgentId: string | undefined): void {
  if (fromAgentId !== agent.agentId) forbid(agent, 'a message it sends must name it as the sender');
}

const AGENT_ACCESS: AgentAccess = {
  getStatus: { shown: (status, agent) => ({ ...status, projects: status.projects.filter((project) => project.id === agent.projectId) }) },
  // Once its identity ended (the session it proved is over), the connection may prove another.
  identifyAgent: {
    check: (_params, agent) => {
      if (agent.ended() === null) forbid(agent, 'this connection already speaks for it');
    },
  },
  listProjects: { shown: (list, agent) => ({ ...list, projects: list.projects.filter((project) => project.id === agent.projectId) }) },
  addProject: 'person-only',
  renameProject: 'person-only',
  removeProject: 'person-only',
  findProjectByPath: {
    shown: (project, agent) => {
      ownProject(agent, project.id);
      return project;
    },
  },
  getProjectSettings: inProject((params) => params.projectId),
  updateProjectSettings: 'person-only',
  getWorkState: {
    check: (params, agent) => ownProject(agent, params.projectId),
    // Other agents' inboxes are theirs: only messages to or from this agent.
    shown: (part, agent) => ({ ...part, messages: part.messages.filter((message) => message.agentId === agent.agentId || message.fromAgentId === agent.agentId) }),
  },
  startProjectEmpty: 'person-only',
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
  // Profiles may hold the person's keys in their env.
  listAgentProfiles: 'person-only',
  saveAgentProfile: 'person-only',
  deleteAgentProfile: 'person-only',
  createAgent: 'person-only',
  updateAgent: 'person-only',
  removeAgent: 'person-only',
  deleteKeptBranch: 'person-only',
  startAgent: 'person-only',
  stopAgent: 'person-only',
  restartAgent: 'person-only',
  // Typing into a terminal, or reading one, is the person's.
  writeAgentInput: 'person-only',
  resizeAgent: 'person-only',
  attachAgentTerminal: 'person-only',
  readAgentScreen: 'person-only',
  detachAgentTerminal: 'person-only',
  ackAgentOutput: 'person-only',
  reportAgentHook: itself((params) => params.agentId),
  listInbox: itself((params) => params.agentId),
  markInboxRead: itself((params) => params.agentId),
  // What a person saw is theirs to say.
  markInboxSeen: 'person-only',
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
  wakeAgent: 'person-only',
  // Both act only on the caller's own channel (the handlers take the agent from the connection).
  awaitChannelWake: { waits: true },
  reportChannelWake: {},
  holdAgentWakes: 'person-only',
  pauseAgentAccount: 'person-only',
  resumeAccount: 'person-only',
  listMachines: 'person-only',
  addMachine: 'person-only',
  updateMachineHost: 'person-only',
  getMachineHost: 'person-only',
  restartMachineHost: 'person-only',
  removeMachine: 'person-only',
  getAppSettings: 'person-only',
  updateAppSettings: 'person-only',
  installCommandLineTool: 'person-only',
  getProjectGit: inProject((params) => params.projectId),
  listWorktrees: inProject((params) => params.projectId),
  getWorktreeStatus: agentInProject((params) => params.agentId),
  getWorktreeDiff: agentInProject((params) => params.agentId),
  watchWorktree: agentInProject((params) => params.agentId),
  unwatchWorktree: agentInProject((params) => params.agentId),
  checkWorktreeMerge: agentInProject((params) => params.agentId),
  // Merging into the parent, handing work back and pushing are the person's decisions.
  mergeWorktree: 'person-only',
  handBackWorktreeConflicts: 'person-only',
  pushWorktreeBranch: 'person-only',
  getWorktreeDiskUsage: inProject((params) => params.projectId),
  // The forge holds the person's token and speaks for them there: nothing of it is an agent's.
  getForgeStatus: 'person-only',
  setForgeToken: 'person-only',
  draftPullRequest: 'person-only',
  createPullRequest: 'person-only',
  refreshPullRequest: 'person-only',
  sendForgeFeedback: 'person-only',
  mergePullRequest: 'person-only',
  archiveAgent: 'person-only',
  listForgeIssues: 'person-only',
  startAgentOnIssue: 'person-only',
  // An agent may read the checkpoints of its project's agents; restoring and comments are the person's review.
  listTurns: agentInProject((params) => params.agentId),
  getTurnDiff: agentInProject((params) => params.agentId),
  restoreTurn: 'person-only',
  revertChange: 'person-only',
  getCheckpointUsage: inProject((params) => params.projectId),
  listDiffComments: 'person-only',
  addDiffComment: 'person-only',
  deleteDiffComment: 'person-only',
  sendDiffComments: 'person-only',
  compareAgents: 'person-only',
  diffAgents: 'person-only',
  // The Needs you queue is the person's.
  getHandledAttention: 'person-only',
  updateHandledAttention: 'person-only',
  // The editor opens on the person's screen: an agent has its own tools for files.
  openInEditor: 'person-only',
  getTerminalEditor: 'person-only',
};

type AnyHandler = (params: unknown, client: Client) => unknown;

/**
 * The handlers, each behind its rule for agents: a connection that identified as an agent is
 * checked before the handler runs and sees only what its rule lets through.
 */
export function restrictAgents<N extends CoreMethodName>(handlers: Methods<N>, locate: Locator): Methods<N> {
  const restricted: Partial<Record<N, AnyHandler>> = {};
  for (const method of Object.keys(handlers) as N[]) {
    const handler = handlers[method] as AnyHandler;
    const rule = AGENT_ACCESS[method] as AgentRule<MethodName> | 'person-only';
    restricted[method] = async (params, client) => {
      const caller = client.caller;
      if (caller.kind !== 'agent') return handler(params, client);
      if (method !== 'identifyAgent') refuseEnded(caller);
      if (rule === 'person-only') forbid(caller, `${method} is for people, not agents`);
      rule.check?.(params as MethodInput<MethodName>, caller, locate);
      const result = (await handler(params, client)) as MethodResult<MethodName>;
      if (rule.waits) refuseEnded(caller);
      return rule.shown ? rule.shown(result, caller) : result;
    };
  }
  return restricted as Methods<N>;
}

/** Of the host's own methods an agent may only greet it: its status, its doors and stopping it are the person's. */
export function checkHostMethod(method: HostMethodName, caller: Caller): void {
  if (caller.kind !== 'agent' || method === 'hostHello') return;
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
