import { describe, expect, it } from 'vitest';
import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Task } from '../../shared/entities/tasks';
import type { Wake } from '../../shared/entities/wake';
import type { ProjectWorkState } from '../../shared/entities/workState';
import { DroverRequestError, type RequestFrame } from '../../shared/protocol';
import { RpcClient } from '../../shared/rpcClient';
import { BaseFakeBridge, settle } from '../testing/fakeBridge';
import { makeAgent, makeMessage, makeProject, makeSession, makeTask, makeWake, makeWorktree } from '../testing/fixtures';
import { createDroverStore } from './droverStore';
import { currentWake, fetchWorkState } from './projectWorkState';

interface PendingCall {
  method: MethodName;
  params: unknown;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** A bridge whose calls stay pending until the test answers them, to interleave events. */
class FakeBridge extends BaseFakeBridge {
  readonly calls: PendingCall[] = [];

  constructor() {
    super('connecting');
  }

  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    return new Promise((resolve, reject) => {
      this.calls.push({ method, params, resolve: resolve as (result: unknown) => void, reject });
    });
  }

  async answer(method: MethodName, result: unknown): Promise<void> {
    const index = this.calls.findIndex((call) => call.method === method);
    const [call] = this.calls.splice(index, 1);
    if (!call) throw new Error(`no pending ${method} call`);
    call.resolve(result);
    await settle();
  }
}

const project = (id: string, name: string, seq: number) => makeProject({ id, name, path: `/code/${name}`, seq });
const task = (id: string, state: Task['state'], seq: number) => makeTask({ id, state, seq });
const agent = (id: string, name: string, seq: number) => makeAgent({ id, name, seq });
const session = (agentId: string, state: AgentSession['state'], seq: number) => makeSession({ id: `s-${seq}`, agentId, state, seq });
const message = (id: string, state: InboxMessage['state'], seq: number) =>
  makeMessage({ id, kind: 'task-result', body: 'Task t-aaaaaa "make" succeeded: exit code 0.', taskId: 't-aaaaaa', state, seq });
const wake = (id: string, state: Wake['state'], createdAt: number, seq: number) => makeWake({ id, state, createdAt, updatedAt: createdAt, seq });
/** A `getWorkState` answer for project p-aaaaaa: the entities a test names, none of the others. */
const snapshot = (seq: number, entities: Partial<Omit<ProjectWorkState, 'projectId' | 'seq'>> = {}, next: string | null = null): ProjectWorkState & { next: string | null } => ({
  projectId: 'p-aaaaaa',
  seq,
  tasks: [],
  agents: [],
  sessions: [],
  messages: [],
  wakes: [],
  worktrees: [],
  forgeLinks: [],
  formerAgents: [],
  mergeQueue: [],
  automations: [],
  conflictNotices: [],
  ...entities,
  next,
});

describe('fetchWorkState at the boundary', () => {
  /** fetchWorkState through the page's RpcClient, the host answering its one call with `part`. */
  const fetchAnswered = (part: unknown) => {
    const sent: RequestFrame[] = [];
    const client = new RpcClient((frame) => sent.push(frame));
    const fetched = fetchWorkState({ call: (method, params) => client.call(method, params) }, 'p-aaaaaa');
    client.receive({ t: 'res', id: sent[0]?.id, ok: true, result: part });
    return fetched;
  };

  it('passes a well-formed snapshot on', async () => {
    const tasks = [task('t-aaaaaa', 'failed', 1)];
    expect((await fetchAnswered(snapshot(7, { tasks }))).tasks).toEqual(tasks);
  });

  it('refuses a malformed snapshot, naming the task and the field that are wrong', async () => {
    const tasks = [task('t-aaaaaa', 'failed', 1), { ...task('t-bbbbbb', 'failed', 2), exitCode: 'two' }];
    const error = await fetchAnswered(snapshot(7, { tasks: tasks as Task[] })).then(
      () => null,
      (rejected: unknown) => rejected,
    );
    expect(error).toMatchObject({ code: 'internal', message: expect.stringMatching(/^Malformed getWorkState result: /) });
    const issues = JSON.parse((error as Error).message.replace(/^Malformed getWorkState result: /, '')) as unknown;
    expect(issues).toEqual([expect.objectContaining({ path: ['tasks', 1, 'exitCode'], message: 'not a whole number or null' })]);
  });
});

describe('currentWake', () => {
  it('keeps the newer version of the same wake, and a later wake over an earlier one', () => {
    expect(currentWake(wake('w-1', 'delivered', 1, 5), wake('w-1', 'delivering', 1, 4)).state).toBe('delivered');
    expect(currentWake(wake('w-1', 'delivered', 1, 5), wake('w-2', 'waiting', 2, 6)).id).toBe('w-2');
    expect(currentWake(wake('w-2', 'waiting', 2, 6), wake('w-1', 'delivered', 1, 7)).id).toBe('w-2');
  });
});

describe('createDroverStore', () => {
  it('loads projects when the connection opens and applies newer events buffered meanwhile', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    bridge.push({ name: 'projectChanged', seq: 3, projectId: 'p-aaaaaa', project: project('p-aaaaaa', 'stale', 3) });
    bridge.push({ name: 'projectChanged', seq: 4, projectId: 'p-bbbbbb', project: project('p-bbbbbb', 'new', 4) });
    await bridge.answer('listProjects', { seq: 3, projects: [project('p-aaaaaa', 'a', 3)] });

    const { projects } = store.getState();
    expect(projects.status).toBe('ready');
    expect(Object.values(projects.byId).map((p) => p.name)).toEqual(['a', 'new']);
  });

  it('removes a project on a projectChanged event with project null', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 1, projects: [project('p-aaaaaa', 'a', 1)] });
    bridge.push({ name: 'projectChanged', seq: 2, projectId: 'p-aaaaaa', project: null });
    expect(store.getState().projects.byId).toEqual({});
  });

  it('re-fetches every snapshot after the connection comes back', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 1, projects: [project('p-aaaaaa', 'a', 1)] });
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(1, { tasks: [task('t-aaaaaa', 'running', 1)] }));

    bridge.setConnection('lost');
    expect(store.getState().connection).toBe('lost');
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 5, projects: [] });
    await bridge.answer('getWorkState', snapshot(9, { tasks: [task('t-aaaaaa', 'interrupted', 9)] }));

    const state = store.getState();
    expect(state.projects.byId).toEqual({});
    expect(state.workStates['p-aaaaaa']?.tasksById['t-aaaaaa']?.state).toBe('interrupted');
  });

  it('reads a work state sent in parts, under the first part’s seq, applying only newer events', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 1, projects: [project('p-aaaaaa', 'a', 1)] });
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(5, { tasks: [task('t-cccccc', 'running', 5)] }, 'tasks:t-cccccc'));
    expect(bridge.calls.find((call) => call.method === 'getWorkState')?.params).toEqual({ projectId: 'p-aaaaaa', after: 'tasks:t-cccccc' });
    bridge.push({ name: 'backgroundTaskChanged', seq: 6, projectId: 'p-aaaaaa', task: task('t-bbbbbb', 'failed', 6) });
    await bridge.answer('getWorkState', snapshot(7, { tasks: [task('t-bbbbbb', 'running', 4)] }, 'messages:'));
    expect(store.getState().workStates['p-aaaaaa']?.status).toBe('loading');
    await bridge.answer('getWorkState', snapshot(7, { messages: [message('m-aaaaaa', 'pending', 3)] }));

    const loaded = store.getState().workStates['p-aaaaaa'];
    expect(loaded?.status).toBe('ready');
    expect(Object.values(loaded?.tasksById ?? {}).map((t) => `${t.id} ${t.state}`).sort()).toEqual(['t-bbbbbb failed', 't-cccccc running']);
    expect(Object.keys(loaded?.messagesById ?? {})).toEqual(['m-aaaaaa']);
  });

  it('offers the person a way out when a project’s work state is missing', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 1, projects: [project('p-aaaaaa', 'a', 1)] });
    store.getState().actions.trackWorkState('p-aaaaaa');
    const call = bridge.calls.find((pending) => pending.method === 'getWorkState');
    bridge.calls.splice(bridge.calls.indexOf(call as PendingCall), 1);
    call?.reject(new DroverRequestError('data-missing', 'The work state of project p-aaaaaa at /x/state.sqlite is missing.'));
    await settle();
    expect(store.getState().workStates['p-aaaaaa']).toMatchObject({ status: 'error', errorCode: 'data-missing' });

    const starting = store.getState().actions.startProjectEmpty('p-aaaaaa');
    await bridge.answer('startProjectEmpty', project('p-aaaaaa', 'a', 1));
    await starting;
    await bridge.answer('getWorkState', snapshot(0));
    expect(store.getState().workStates['p-aaaaaa']).toMatchObject({ status: 'ready', errorCode: null });
  });

  it('applies task events newer than the work-state snapshot only', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    store.getState().actions.trackWorkState('p-aaaaaa');
    bridge.push({ name: 'backgroundTaskChanged', seq: 2, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'running', 2) });
    await bridge.answer('getWorkState', snapshot(2, { tasks: [task('t-aaaaaa', 'running', 2)] }));
    bridge.push({ name: 'backgroundTaskChanged', seq: 1, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'queued', 1) });
    bridge.push({ name: 'backgroundTaskChanged', seq: 3, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'succeeded', 3) });
    bridge.push({ name: 'backgroundTaskChanged', seq: 4, projectId: 'p-untracked', task: task('t-bbbbbb', 'queued', 4) });

    const state = store.getState();
    expect(state.workStates['p-aaaaaa']?.tasksById['t-aaaaaa']?.state).toBe('succeeded');
    expect(state.workStates['p-untracked']).toBeUndefined();
  });

  it('keeps the newest version of a task when the host announces changes out of seq order', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    const ended: string[] = [];
    store.getState().actions.onTaskEnded((t) => ended.push(t.state));
    bridge.setConnection('open');
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(2, { tasks: [task('t-aaaaaa', 'running', 2)] }));
    bridge.push({ name: 'agentInboxChanged', seq: 4, projectId: 'p-aaaaaa', message: message('m-aaaaaa', 'pending', 4) });
    bridge.push({ name: 'backgroundTaskChanged', seq: 3, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'succeeded', 3) });
    bridge.push({ name: 'backgroundTaskChanged', seq: 3, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'succeeded', 3) });

    const slice = store.getState().workStates['p-aaaaaa'];
    expect(slice?.tasksById['t-aaaaaa']?.state).toBe('succeeded');
    expect(slice?.messagesById['m-aaaaaa']?.state).toBe('pending');
    expect(ended).toEqual(['succeeded']);
  });

  it('announces tasks that end live, never those a snapshot shows already ended', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    const ended: string[] = [];
    store.getState().actions.onTaskEnded((t) => ended.push(`${t.id} ${t.state}`));
    bridge.setConnection('open');
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(2, {
      tasks: [task('t-aaaaaa', 'running', 1), task('t-bbbbbb', 'failed', 2)],
    }));
    bridge.push({ name: 'backgroundTaskChanged', seq: 3, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'succeeded', 3) });
    bridge.push({ name: 'backgroundTaskChanged', seq: 4, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'succeeded', 4) });

    bridge.setConnection('lost');
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 0, projects: [] });
    await bridge.answer('getWorkState', snapshot(9, { tasks: [task('t-cccccc', 'interrupted', 9)] }));

    expect(ended).toEqual(['t-aaaaaa succeeded']);
  });

  it('applies agent and session events by seq, and forgets a removed agent with its session', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(3, {
      agents: [agent('a-aaaaaa', 'Ada', 2)],
      sessions: [session('a-aaaaaa', 'ready', 3)],
    }));
    bridge.push({ name: 'agentSessionChanged', seq: 2, projectId: 'p-aaaaaa', session: session('a-aaaaaa', 'starting', 2) });
    bridge.push({ name: 'agentSessionChanged', seq: 4, projectId: 'p-aaaaaa', session: session('a-aaaaaa', 'busy', 4) });
    bridge.push({ name: 'agentChanged', seq: 5, projectId: 'p-aaaaaa', agentId: 'a-bbbbbb', agent: agent('a-bbbbbb', 'Bo', 5) });
    const slice = () => store.getState().workStates['p-aaaaaa'];
    expect(slice()?.sessionsByAgentId['a-aaaaaa']?.state).toBe('busy');
    expect(Object.values(slice()?.agentsById ?? {}).map((a) => a.name)).toEqual(['Ada', 'Bo']);

    bridge.push({ name: 'agentChanged', seq: 6, projectId: 'p-aaaaaa', agentId: 'a-aaaaaa', agent: null });
    expect(Object.keys(slice()?.agentsById ?? {})).toEqual(['a-bbbbbb']);
    expect(slice()?.sessionsByAgentId).toEqual({});
  });

  it("follows agents' worktrees from the snapshot and newer events, and forgets one with its agent", async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(4, {
      agents: [agent('a-aaaaaa', 'Ada', 1), agent('a-bbbbbb', 'Bo', 2)],
      worktrees: [makeWorktree({ agentId: 'a-aaaaaa', branch: 'drover/ada-0001', seq: 3 })],
    }));
    const worktrees = () => store.getState().workStates['p-aaaaaa']?.worktreesByAgentId ?? {};
    bridge.push({ name: 'agentWorktreeChanged', seq: 2, projectId: 'p-aaaaaa', agentId: 'a-aaaaaa', worktree: makeWorktree({ agentId: 'a-aaaaaa', state: 'creating', seq: 2 }) });
    bridge.push({ name: 'agentWorktreeChanged', seq: 5, projectId: 'p-aaaaaa', agentId: 'a-bbbbbb', worktree: makeWorktree({ agentId: 'a-bbbbbb', branch: 'drover/bo-0002', seq: 5 }) });
    bridge.push({ name: 'agentWorktreeChanged', seq: 6, projectId: 'p-aaaaaa', agentId: 'a-aaaaaa', worktree: makeWorktree({ agentId: 'a-aaaaaa', branch: 'drover/ada-0001', changedAt: 99, seq: 6 }) });
    expect(worktrees()['a-aaaaaa']).toMatchObject({ state: 'ready', changedAt: 99 });
    expect(worktrees()['a-bbbbbb']?.branch).toBe('drover/bo-0002');

    bridge.push({ name: 'agentWorktreeChanged', seq: 7, projectId: 'p-aaaaaa', agentId: 'a-bbbbbb', worktree: null });
    bridge.push({ name: 'agentChanged', seq: 8, projectId: 'p-aaaaaa', agentId: 'a-aaaaaa', agent: null });
    expect(worktrees()).toEqual({});
  });

  it('reports a failed snapshot without losing held data', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    const listCall = bridge.calls[0];
    listCall?.reject(new Error('storage unavailable'));
    await settle();
    expect(store.getState().projects).toMatchObject({ status: 'error', error: 'storage unavailable' });
  });

  it('follows inbox messages and wakes from the snapshot and newer events', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(4, {
      agents: [agent('a-aaaaaa', 'Ada', 1)],
      messages: [message('m-aaaaaa', 'pending', 3)],
      wakes: [wake('w-old', 'delivered', 1, 2), wake('w-new', 'waiting', 2, 4)],
    }));
    const slice = () => store.getState().workStates['p-aaaaaa'];
    expect(slice()?.wakesByAgentId['a-aaaaaa']?.id).toBe('w-new');

    bridge.push({ name: 'agentInboxChanged', seq: 3, projectId: 'p-aaaaaa', message: message('m-aaaaaa', 'read', 3) });
    bridge.push({ name: 'agentWakeChanged', seq: 5, projectId: 'p-aaaaaa', wake: wake('w-new', 'delivered', 2, 5) });
    bridge.push({ name: 'agentInboxChanged', seq: 6, projectId: 'p-aaaaaa', message: message('m-aaaaaa', 'delivered', 6) });
    expect(slice()?.messagesById['m-aaaaaa']?.state).toBe('delivered');
    expect(slice()?.wakesByAgentId['a-aaaaaa']?.state).toBe('delivered');

    const marked = store.getState().actions.markInboxRead('a-aaaaaa');
    await bridge.answer('markInboxRead', [message('m-aaaaaa', 'read', 7)]);
    await marked;
    expect(slice()?.messagesById['m-aaaaaa']?.state).toBe('read');
  });

  it('follows the work state and settings of every registered project, and forgets a removed one', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 1, projects: [project('p-aaaaaa', 'a', 1), project('p-bbbbbb', 'b', 1)] });
    expect(bridge.calls.filter((call) => call.method === 'getWorkState').map((call) => call.params)).toEqual([{ projectId: 'p-aaaaaa' }, { projectId: 'p-bbbbbb' }]);
    await bridge.answer('getProjectSettings', { taskConcurrency: 3, taskOutputCapBytes: 1024, cancelGraceMs: 0, notificationsMuted: true });
    expect(store.getState().settings.byId['p-aaaaaa']?.notificationsMuted).toBe(true);

    bridge.push({ name: 'projectChanged', seq: 2, projectId: 'p-aaaaaa', project: null });
    expect(store.getState().workStates['p-aaaaaa']).toBeUndefined();
    expect(store.getState().settings.byId['p-aaaaaa']).toBeUndefined();
  });

  it('raises an attention item for a live move into needs input or a failed task, once, never for what a snapshot shows', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    const raised: string[] = [];
    store.getState().actions.onAttentionRaised((item) => raised.push(item.kind));
    bridge.setConnection('open');
    store.getState().actions.trackWorkState('p-aaaaaa');
    await bridge.answer('getWorkState', snapshot(3, {
      agents: [agent('a-aaaaaa', 'Ada', 1)],
      sessions: [makeSession({ id: 's-1', agentId: 'a-aaaaaa', state: 'ready', needsInput: true, seq: 2 })],
      tasks: [task('t-old', 'failed', 3), task('t-aaaaaa', 'running', 3)],
    }));
    expect(raised).toEqual([]);

    const asking = (seq: number, needsInput: boolean, state: AgentSession['state'] = 'ready') =>
      bridge.push({ name: 'agentSessionChanged', seq, projectId: 'p-aaaaaa', session: makeSession({ id: 's-1', agentId: 'a-aaaaaa', state, needsInput, seq }) });
    asking(4, true);
    asking(5, false, 'busy');
    asking(6, false);
    asking(7, true);
    asking(8, true);
    bridge.push({ name: 'backgroundTaskChanged', seq: 9, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'failed', 9) });
    bridge.push({ name: 'backgroundTaskChanged', seq: 10, projectId: 'p-aaaaaa', task: task('t-aaaaaa', 'failed', 10) });
    expect(raised).toEqual(['needs-input', 'task-failed']);
  });

  it('keeps what the person handled until that occurrence ends, so the next one is in the queue again', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 1, projects: [project('p-aaaaaa', 'a', 1)] });
    await bridge.answer('getWorkState', snapshot(2, {
      agents: [agent('a-aaaaaa', 'Ada', 1)],
      sessions: [makeSession({ id: 's-1', agentId: 'a-aaaaaa', state: 'ready', needsInput: true, seq: 2 })],
    }));
    const key = 'needs-input:p-aaaaaa:s-1';
    store.getState().actions.markHandled([key]);
    expect(store.getState().attention.handled.has(key)).toBe(true);
    bridge.push({ name: 'agentSessionChanged', seq: 3, projectId: 'p-aaaaaa', session: makeSession({ id: 's-1', agentId: 'a-aaaaaa', state: 'ready', needsInput: true, seq: 3 }) });
    expect(store.getState().attention.handled.has(key)).toBe(true);
    bridge.push({ name: 'agentSessionChanged', seq: 4, projectId: 'p-aaaaaa', session: makeSession({ id: 's-1', agentId: 'a-aaaaaa', state: 'busy', seq: 4 }) });
    expect(store.getState().attention.handled.has(key)).toBe(false);
  });

  it('shows what any page handled as the host keeps it, newest first, and tells the host which handled items ended', async () => {
    const bridge = new FakeBridge();
    const store = createDroverStore(bridge);
    bridge.setConnection('open');
    await bridge.answer('listProjects', { seq: 1, projects: [project('p-aaaaaa', 'a', 1)] });
    await bridge.answer('getWorkState', snapshot(3, {
      agents: [agent('a-aaaaaa', 'Ada', 1)],
      sessions: [makeSession({ id: 's-1', agentId: 'a-aaaaaa', state: 'ready', needsInput: true, seq: 2 })],
      tasks: [task('t-old', 'failed', 3)],
    }));
    const asking = 'needs-input:p-aaaaaa:s-1';
    const failed = 'task-failed:p-aaaaaa:t-old';
    const handled = () => [...store.getState().attention.handled].sort();
    await bridge.answer('getHandledAttention', { projectId: 'p-aaaaaa', seq: 3, keys: [asking] });
    expect(handled()).toEqual([asking]);

    // Another page dismissed the failed task; an older set arriving late changes nothing.
    bridge.push({ name: 'handledAttentionChanged', seq: 5, projectId: 'p-aaaaaa', keys: [asking, failed] });
    bridge.push({ name: 'handledAttentionChanged', seq: 4, projectId: 'p-aaaaaa', keys: [] });
    expect(handled()).toEqual([asking, failed]);
    store.getState().actions.markHandled([failed]);
    expect(bridge.calls.filter((call) => call.method === 'updateHandledAttention')).toEqual([]);

    // The agent went on: its question ended, for the host too.
    bridge.push({ name: 'agentSessionChanged', seq: 6, projectId: 'p-aaaaaa', session: makeSession({ id: 's-1', agentId: 'a-aaaaaa', state: 'busy', seq: 6 }) });
    expect(handled()).toEqual([failed]);
    expect(bridge.calls.find((call) => call.method === 'updateHandledAttention')?.params).toEqual({ projectId: 'p-aaaaaa', ended: [asking] });
    await bridge.answer('updateHandledAttention', { projectId: 'p-aaaaaa', seq: 7, keys: [failed] });
    expect(handled()).toEqual([failed]);
  });
});
