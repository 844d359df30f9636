import { describe, expect, it } from 'vitest';
import { entryOf, METHODS, type CoreMethodName, type MethodName, type MethodParams } from '../../shared/contract';
import { HOST_METHOD_NAMES, type HostMethodName } from '../../shared/contract/host';
import { EVERY_DOOR } from '../../shared/contract/methodFacts';
import { RpcClient } from '../../shared/rpcClient';
import type { RequestFrame } from '../../shared/protocol';
import type { AgentCaller, Client, Methods } from '../core/api';
import { checkHostMethod, restrictAgents } from '../core/callers/agentAccess';
import type { Core } from '../core/compose';
import type { Locator } from '../core/locate';
import { pageRequestProblem } from '../wire/machinePageRules';
import { openConnection, type Door, type HostMethods } from './connection';
import type { RequestLedger } from './requestLedger';

/**
 * What each method is, as the host and its clients behaved before its facts moved onto its contract
 * entry: the lists below were taken from the tables those facts replaced, and each is checked
 * through the code that acts on it (the client's drop policy, a door's refusal, an agent's refusal).
 */
const READS = [
  'getAutomationHistory', 'getUpcomingAutomationRuns', 'listAutomations',
  'compareAgents', 'diffAgents', 'draftPullRequest', 'findProjectByPath', 'getAppSettings', 'getCheckpointUsage', 'getForgeStatus',
  'getHandledAttention', 'getHostStatus', 'getMachineHost', 'getProjectGit', 'getProjectSettings', 'getStatus', 'getTask', 'getTerminalEditor', 'getTurnDiff',
  'getWorkState', 'getWorktreeDiff', 'getWorktreeDiskUsage', 'getWorktreeStatus', 'checkWorktreeMerge', 'listAgentProfiles', 'listDiffComments',
  'listForgeIssues', 'listInbox', 'listMachines', 'listMergeQueue', 'listOverlaps', 'listProjects', 'listTasks', 'listTurns', 'listWorktrees', 'readAgentScreen', 'readTaskOutput',
];
const ON_THE_CONNECTION = [
  'ackAgentOutput', 'ackTaskOutput', 'attachAgentTerminal', 'awaitChannelWake', 'awaitReply', 'detachAgentTerminal', 'hostHello', 'identifyAgent',
  'openWebDoor', 'unwatchTaskOutput', 'unwatchWorktree', 'watchTaskOutput', 'watchWorktree',
];
/** Only Drover's own commands and the desktop window, on the local socket. */
const SOCKET_ONLY = ['openWebDoor', 'stopHost'];
/** What a page of another machine may not ask of that machine's host. */
const NOT_FOR_A_MACHINE_PAGE = ['getHostStatus', 'openWebDoor', 'stopHost'];
const REFUSED_TO_AGENTS = [
  'ackAgentOutput', 'addAutomation', 'addDiffComment', 'addMachine', 'addProject', 'archiveAgent', 'attachAgentTerminal', 'compareAgents', 'createAgent',
  'createPullRequest', 'deleteAgentProfile', 'deleteDiffComment', 'deleteKeptBranch', 'detachAgentTerminal', 'diffAgents', 'draftPullRequest',
  'getAppSettings', 'getAutomationHistory', 'getForgeStatus', 'getHandledAttention', 'getHostStatus', 'getMachineHost', 'getTerminalEditor', 'getUpcomingAutomationRuns', 'handBackWorktreeConflicts',
  'holdAgentWakes',
  'installCommandLineTool', 'listAgentProfiles', 'listAutomations', 'listDiffComments', 'listForgeIssues', 'listMachines', 'markInboxSeen', 'mergePullRequest',
  'mergeWorktree', 'moveInMergeQueue', 'openInEditor', 'openWebDoor', 'pauseAgentAccount', 'pauseAutomation', 'pushWorktreeBranch', 'queueForMerge', 'readAgentScreen', 'refreshPullRequest', 'removeAgent', 'removeAutomation', 'removeFromMergeQueue',
  'removeMachine', 'removeProject', 'renameProject', 'resizeAgent', 'restartAgent', 'restartMachineHost', 'restoreTurn', 'resumeAccount', 'resumeAutomation',
  'revertChange', 'runAutomation', 'saveAgentProfile', 'sendDiffComments', 'sendForgeFeedback', 'setForgeToken', 'startAgent', 'startAgentOnIssue',
  'startProjectEmpty', 'stopAgent', 'stopHost', 'tellOverlapAgents', 'updateAgent', 'updateAppSettings', 'updateAutomation', 'updateHandledAttention', 'updateMachineHost',
  'updateProjectSettings', 'wakeAgent', 'writeAgentInput',
];

const ALL = Object.keys(METHODS) as MethodName[];
const sorted = (names: Iterable<string>) => [...names].sort();
const allBut = (names: string[]) => ALL.filter((method) => !names.includes(method));

/** Lets the promise callbacks of what just settled run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Calls every method through a client with a drop policy, drops it: which calls carried a key, and which failed with the drop. */
async function dropBehaviour(): Promise<{ keyed: string[]; failedOnDrop: string[] }> {
  const frames: RequestFrame[] = [];
  const client = new RpcClient((frame) => frames.push(frame), {}, { keyPrefix: 'k', holdMs: 60_000 });
  const failedOnDrop: string[] = [];
  for (const method of ALL) client.call(method, {} as MethodParams<typeof method>).catch(() => failedOnDrop.push(method));
  client.connectionLost('dropped');
  await settle();
  const failedBeforeTheEnd = [...failedOnDrop];
  client.failAll('test over');
  await settle();
  return { keyed: frames.filter((frame) => frame.key !== undefined).map((frame) => frame.method), failedOnDrop: failedBeforeTheEnd };
}

const LOCAL_SOCKET_REFUSAL = "is only for Drover's own commands on the local socket";

/** The methods a connection through `door` refuses as not for that door, before looking at their params. */
async function refusedAtDoor(door: Door): Promise<string[]> {
  const core = { events: { onEvent: () => () => undefined }, api: {} } as unknown as Core;
  const connection = openConnection(core, {} as HostMethods, door, () => undefined, {} as RequestLedger);
  const refused: string[] = [];
  for (const [id, method] of ALL.entries()) {
    const reply = await connection.handle({ t: 'req', id, method, params: {} });
    if (!reply.ok && reply.error.message.includes(LOCAL_SOCKET_REFUSAL)) refused.push(method);
  }
  connection.close();
  return refused;
}

const agent: AgentCaller = { kind: 'agent', projectId: 'p-1', agentId: 'a-1', agentName: 'Alice', sessionId: 's-1', ended: () => null };

/** The methods a live agent's connection is refused as "for people", whatever it asks. */
async function refusedToAgents(): Promise<string[]> {
  const coreNames = ALL.filter((method): method is CoreMethodName => !(HOST_METHOD_NAMES as string[]).includes(method));
  const handlers = Object.fromEntries(coreNames.map((method) => [method, () => Promise.resolve('handled')])) as unknown as Methods<CoreMethodName>;
  const restricted = restrictAgents(handlers, {} as Locator);
  const client: Client = { signal: new AbortController().signal, caller: agent, identifyAs: () => undefined, sendTaskOutput: () => undefined, sendTerminal: () => undefined };
  const refused: string[] = [];
  const forPeople = (method: string, error: unknown) => error instanceof Error && error.message.includes(`${method} is for people, not agents`);
  for (const method of HOST_METHOD_NAMES as HostMethodName[]) {
    try {
      checkHostMethod(method, agent);
    } catch (error) {
      if (forPeople(method, error)) refused.push(method);
    }
  }
  for (const method of coreNames) {
    const call = restricted[method] as (params: unknown, client: Client) => Promise<unknown>;
    try {
      await call({}, client);
    } catch (error) {
      if (forPeople(method, error)) refused.push(method);
    }
  }
  return refused;
}

describe("each method's facts", () => {
  it('every method says what it is, which doors take it and what an agent may do with it', () => {
    for (const method of ALL) {
      const { kind, doors, agents } = entryOf(method);
      expect(['reads', 'changes', 'connection'], `${method}'s kind`).toContain(kind);
      expect(doors.length, `${method}'s doors`).toBeGreaterThan(0);
      for (const door of doors) expect(EVERY_DOOR, `${method}'s doors`).toContain(door);
      expect(['allowed', 'refused', 'own'], `${method}'s rule for agents`).toContain(agents);
    }
  });

  it('a client with a drop policy keys the calls that change work state, fails those on the connection at a drop, and holds the reads', async () => {
    const { keyed, failedOnDrop } = await dropBehaviour();
    expect(sorted(keyed)).toEqual(sorted(allBut([...READS, ...ON_THE_CONNECTION])));
    expect(sorted(failedOnDrop)).toEqual(sorted(ON_THE_CONNECTION));
  });

  it('the local socket takes every method, a browser page all but the socket-only ones', async () => {
    expect(await refusedAtDoor('socket')).toEqual([]);
    expect(sorted(await refusedAtDoor('web'))).toEqual(sorted(SOCKET_ONLY));
  });

  it("a page of another machine may ask its host everything but the host's own affairs", () => {
    const refused = ALL.filter((method) => pageRequestProblem({ t: 'req', id: 1, method, params: {} }) !== null);
    expect(sorted(refused)).toEqual(sorted(NOT_FOR_A_MACHINE_PAGE));
  });

  it('an agent is refused what is for people only', async () => {
    expect(sorted(await refusedToAgents())).toEqual(sorted(REFUSED_TO_AGENTS));
  });
});
