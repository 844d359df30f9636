import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Task } from '../../shared/entities/tasks';
import type { ForgeLink, PullRequest } from '../../shared/forge';
import { makeAgent, makeProject, makeSession, makeTask } from '../testing/fixtures';
import { attentionKey, attentionQueue, countByProject, keptHandledKeys, nextItem, raisedItem } from './attention';
import { EMPTY_WORK_STATE, type WorkStates, type WorkStateSlice } from './projectWorkState';

const ada = makeAgent({ id: 'a-ada', name: 'Ada', createdAt: 1 });
const bo = makeAgent({ id: 'a-bo', name: 'Bo', createdAt: 2 });
const session = (agentId: string, changes: Partial<AgentSession>) => makeSession({ id: `s-${agentId}`, agentId, ...changes });
const task = (id: string, changes: Partial<Task>) => makeTask({ id, ...changes });

function slice(entities: { sessions?: AgentSession[]; tasks?: Task[]; projectId?: string } = {}): WorkStateSlice {
  const projectId = entities.projectId ?? 'p-aaaaaa';
  const agents = [ada, bo].map((agent) => ({ ...agent, projectId }));
  return {
    ...EMPTY_WORK_STATE,
    status: 'ready',
    agentsById: Object.fromEntries(agents.map((agent) => [agent.id, agent])),
    sessionsByAgentId: Object.fromEntries((entities.sessions ?? []).map((s) => [s.agentId, { ...s, projectId }])),
    tasksById: Object.fromEntries((entities.tasks ?? []).map((t) => [t.id, { ...t, projectId }])),
  };
}

const projects = {
  'p-aaaaaa': makeProject({ id: 'p-aaaaaa', name: 'shop' }),
  'p-bbbbbb': makeProject({ id: 'p-bbbbbb', name: 'api' }),
};

const kinds = (workStates: WorkStates, handled: ReadonlySet<string> = new Set()) =>
  attentionQueue(workStates, projects, handled).map((item) => `${item.kind} ${item.projectId} ${'agent' in item ? item.agent.name : 'task' in item ? item.task.id : 'automation' in item ? item.automation.name : item.conflict.agentNames.join('+')}`);

describe('attentionQueue', () => {
  it('lists agents waiting for an answer, limited or crashed, and failed or interrupted tasks, most urgent first', () => {
    const workStates: WorkStates = {
      'p-aaaaaa': slice({
        sessions: [session('a-ada', { state: 'limited', limitResetsAt: 99 }), session('a-bo', { state: 'exited', endReason: 'exited', exitCode: 1 })],
        tasks: [task('t-failed', { state: 'failed', endedAt: 5 }), task('t-done', { state: 'succeeded' }), task('t-gone', { state: 'interrupted', endedAt: 4 })],
      }),
      'p-bbbbbb': slice({ projectId: 'p-bbbbbb', sessions: [session('a-ada', { state: 'ready', needsInput: true })] }),
    };
    expect(kinds(workStates)).toEqual([
      'needs-input p-bbbbbb Ada',
      'crashed p-aaaaaa Bo',
      'task-failed p-aaaaaa t-failed',
      'task-interrupted p-aaaaaa t-gone',
      'limited p-aaaaaa Ada',
    ]);
    expect(countByProject(attentionQueue(workStates, projects, new Set()))).toEqual(new Map([['p-bbbbbb', 1], ['p-aaaaaa', 4]]));
  });

  it('leaves out busy and ready agents, agents a person stopped or that exited cleanly, retried tasks and handled items', () => {
    const workStates: WorkStates = {
      'p-aaaaaa': slice({
        sessions: [session('a-ada', { state: 'exited', endReason: 'stopped', exitCode: 143 }), session('a-bo', { state: 'exited', endReason: 'exited', exitCode: 0 })],
        tasks: [task('t-first', { state: 'failed' }), task('t-retry', { state: 'running', retryOf: 't-first' }), task('t-other', { state: 'failed' })],
      }),
      'p-bbbbbb': slice({ projectId: 'p-bbbbbb', sessions: [session('a-ada', { state: 'busy' }), session('a-bo', { state: 'ready' })] }),
    };
    expect(kinds(workStates)).toEqual(['task-failed p-aaaaaa t-other']);
    expect(kinds(workStates, new Set([attentionKey('task-failed', 'p-aaaaaa', 't-other')]))).toEqual([]);
  });

  it('lists an automation that paused itself, not one the person paused, and a new pause again once one was handled', () => {
    const notice = (id: string, name: string, pausedReason: string | null, seq: number) => ({ id, projectId: 'p-aaaaaa', name, enabled: false, pausedReason, seq });
    const withAutomations = (automations: ReturnType<typeof notice>[]): WorkStates => ({
      'p-aaaaaa': { ...slice({ tasks: [task('t-failed', { state: 'failed', endedAt: 5 })] }), automationsById: Object.fromEntries(automations.map((automation) => [automation.id, automation])) },
    });
    const paused = withAutomations([notice('u-nightly', 'nightly', 'it failed 3 times in a row (last: exit code 1)', 7), notice('u-manual', 'manual', null, 8)]);
    expect(kinds(paused)).toEqual(['task-failed p-aaaaaa t-failed', 'automation-paused p-aaaaaa nightly']);
    const handled = new Set([attentionKey('automation-paused', 'p-aaaaaa', 'u-nightly@7')]);
    expect(kinds(paused, handled)).toEqual(['task-failed p-aaaaaa t-failed']);
    expect(kinds(withAutomations([notice('u-nightly', 'nightly', 'it failed 3 times in a row (last: exit code 2)', 12)]), handled)).toEqual([
      'task-failed p-aaaaaa t-failed',
      'automation-paused p-aaaaaa nightly',
    ]);
  });

  it('lists two agents whose branches started to conflict, and the same pair again once it starts to conflict anew after being handled', () => {
    const conflict = (seq: number) => ({ id: 'a-alpha1+a-beta11', projectId: 'p-aaaaaa', agents: ['a-alpha1', 'a-beta11'] as [string, string], agentNames: ['alpha', 'beta'] as [string, string], conflictFiles: ['shared.txt'], seq });
    const withConflict = (notice: ReturnType<typeof conflict>): WorkStates => ({
      'p-aaaaaa': { ...slice({ tasks: [task('t-failed', { state: 'failed', endedAt: 5 })] }), conflictNoticesById: { [notice.id]: notice } },
    });
    expect(kinds(withConflict(conflict(9)))).toEqual(['task-failed p-aaaaaa t-failed', 'agents-conflict p-aaaaaa alpha+beta']);
    const handled = new Set([attentionKey('agents-conflict', 'p-aaaaaa', 'a-alpha1+a-beta11@9')]);
    expect(kinds(withConflict(conflict(9)), handled)).toEqual(['task-failed p-aaaaaa t-failed']);
    expect(kinds(withConflict(conflict(15)), handled)).toEqual(['task-failed p-aaaaaa t-failed', 'agents-conflict p-aaaaaa alpha+beta']);
  });

  it('takes a failed start as a crash, and a question during a limit as needs input', () => {
    const workStates: WorkStates = {
      'p-aaaaaa': slice({
        sessions: [session('a-ada', { state: 'exited', endReason: 'spawn-failed: ENOENT' }), session('a-bo', { state: 'limited', needsInput: true })],
      }),
    };
    expect(kinds(workStates)).toEqual(['needs-input p-aaaaaa Bo', 'crashed p-aaaaaa Ada']);
  });
});

describe('raisedItem', () => {
  const ready = slice({ sessions: [session('a-ada', { state: 'busy', seq: 1 })] });

  it('raises a transition into needs input, a limit or a crash, and a task that failed', () => {
    const asking = slice({ sessions: [session('a-ada', { state: 'ready', needsInput: true, seq: 2 })] });
    expect(raisedItem(ready, asking, { agentId: 'a-ada' })?.kind).toBe('needs-input');
    const limited = slice({ sessions: [session('a-ada', { state: 'limited', seq: 2 })] });
    expect(raisedItem(ready, limited, { agentId: 'a-ada' })?.kind).toBe('limited');
    const crashed = slice({ sessions: [session('a-ada', { state: 'exited', endReason: 'exited', exitCode: 2, seq: 2 })] });
    expect(raisedItem(ready, crashed, { agentId: 'a-ada' })?.kind).toBe('crashed');
    const running = slice({ tasks: [task('t-1', { state: 'running', seq: 1 })] });
    const failed = slice({ tasks: [task('t-1', { state: 'failed', seq: 2 })] });
    expect(raisedItem(running, failed, { taskId: 't-1' })?.kind).toBe('task-failed');
  });

  it('never raises a turn that ends, the same question again, a success, an interruption or a person stopping an agent', () => {
    const asking = slice({ sessions: [session('a-ada', { state: 'ready', needsInput: true, seq: 2 })] });
    const stillAsking = slice({ sessions: [session('a-ada', { state: 'ready', needsInput: true, quota: { fiveHour: null, weekly: null }, seq: 3 })] });
    expect(raisedItem(asking, stillAsking, { agentId: 'a-ada' })).toBeNull();
    expect(raisedItem(ready, slice({ sessions: [session('a-ada', { state: 'ready', seq: 2 })] }), { agentId: 'a-ada' })).toBeNull();
    const stopped = slice({ sessions: [session('a-ada', { state: 'exited', endReason: 'stopped', exitCode: 143, seq: 2 })] });
    expect(raisedItem(ready, stopped, { agentId: 'a-ada' })).toBeNull();
    const running = slice({ tasks: [task('t-1', { state: 'running', seq: 1 })] });
    expect(raisedItem(running, slice({ tasks: [task('t-1', { state: 'succeeded', seq: 2 })] }), { taskId: 't-1' })).toBeNull();
    expect(raisedItem(running, slice({ tasks: [task('t-1', { state: 'interrupted', seq: 2 })] }), { taskId: 't-1' })).toBeNull();
  });

  it('raises a new session that needs input even though the last one did too', () => {
    const before = slice({ sessions: [session('a-ada', { id: 's-1', state: 'ready', needsInput: true })] });
    const after = slice({ sessions: [session('a-ada', { id: 's-2', state: 'ready', needsInput: true })] });
    expect(raisedItem(before, after, { agentId: 'a-ada' })?.key).toBe(attentionKey('needs-input', 'p-aaaaaa', 's-2'));
  });
});

describe('keptHandledKeys', () => {
  const asking = slice({ sessions: [session('a-ada', { state: 'ready', needsInput: true })], tasks: [task('t-1', { state: 'failed' })] });
  const askKey = attentionKey('needs-input', 'p-aaaaaa', 's-a-ada');
  const taskKey = attentionKey('task-failed', 'p-aaaaaa', 't-1');

  it('keeps what is still active and drops an occurrence that ended, so the next one shows again', () => {
    const handled = new Set([askKey, taskKey]);
    expect(keptHandledKeys(handled, { 'p-aaaaaa': asking }, projects, true)).toBe(handled);
    const busy = slice({ sessions: [session('a-ada', { state: 'busy' })], tasks: [task('t-1', { state: 'failed' })] });
    expect([...keptHandledKeys(handled, { 'p-aaaaaa': busy }, projects, true)]).toEqual([taskKey]);
  });

  it('keeps the keys of projects not loaded yet, and drops those of removed projects', () => {
    const handled = new Set([askKey]);
    expect(keptHandledKeys(handled, { 'p-aaaaaa': EMPTY_WORK_STATE }, projects, true)).toBe(handled);
    expect(keptHandledKeys(handled, {}, {}, false)).toBe(handled);
    expect(keptHandledKeys(handled, {}, {}, true).size).toBe(0);
  });
});

describe('nextItem', () => {
  const queue = attentionQueue(
    { 'p-aaaaaa': slice({ tasks: [task('t-1', { state: 'failed', endedAt: 1 }), task('t-2', { state: 'failed', endedAt: 2 }), task('t-3', { state: 'failed', endedAt: 3 })] }) },
    projects,
    new Set(),
  );
  const id = (found: ReturnType<typeof nextItem>) => (found && 'task' in found.item ? found.item.task.id : null);

  it('starts at the first item and goes round', () => {
    const first = nextItem(queue, null);
    expect(id(first)).toBe('t-1');
    const last = { key: queue[2]?.key ?? '', index: 2 };
    expect(id(nextItem(queue, last))).toBe('t-1');
  });

  it('goes on from the same place when the last item it jumped to was handled', () => {
    const rest = queue.filter((item) => !('task' in item && item.task.id === 't-2'));
    expect(id(nextItem(rest, { key: queue[1]?.key ?? '', index: 1 }))).toBe('t-3');
    expect(nextItem([], null)).toBeNull();
  });
});

describe('forge items', () => {
  const pullRequest = (changes: Partial<PullRequest> = {}): PullRequest => ({
    number: 7,
    url: 'https://github.invalid/acme/shop/pull/7',
    title: 'Fix the cart',
    state: 'open',
    baseBranch: 'main',
    headBranch: 'drover/ada-1234',
    headSha: 'abc123',
    checks: [{ id: 'run:1', name: 'build', state: 'failed', conclusion: 'failure', summary: null, url: null }],
    checksState: 'failed',
    reviewDecision: 'none',
    mergeability: 'checks-failing',
    reviewCommentIds: [11, 12],
    mergeMethods: ['merge'],
    mergedAt: null,
    checkedAt: 1,
    problem: null,
    ...changes,
  });
  const link = (changes: Partial<ForgeLink> = {}): ForgeLink => ({ agentId: 'a-ada', projectId: 'p-aaaaaa', issue: null, pullRequest: pullRequest(), checksSentFor: null, sentCommentIds: [], seq: 1, ...changes });
  const withLink = (forgeLink: ForgeLink): WorkStates => ({ 'p-aaaaaa': { ...slice(), forgeLinksByAgentId: { 'a-ada': forgeLink } } });

  it('raises failed checks and unsent review comments until they were sent to the agent', () => {
    expect(kinds(withLink(link()))).toEqual(['checks-failed p-aaaaaa Ada', 'review-comments p-aaaaaa Ada']);
    expect(kinds(withLink(link({ checksSentFor: 'abc123:run:1', sentCommentIds: [11, 12] })))).toEqual([]);
    // A new failure on a new commit, and a new comment, are new occurrences.
    const again = attentionQueue(withLink(link({ checksSentFor: 'old:run:1', sentCommentIds: [11] })), projects, new Set());
    expect(again.map((item) => item.key)).toEqual([attentionKey('checks-failed', 'p-aaaaaa', 'a-ada@abc123:run:1'), attentionKey('review-comments', 'p-aaaaaa', 'a-ada@12')]);
  });

  it('raises nothing for a merged or closed pull request, or passing checks', () => {
    expect(kinds(withLink(link({ pullRequest: pullRequest({ state: 'merged' }) })))).toEqual([]);
    expect(kinds(withLink(link({ pullRequest: pullRequest({ checksState: 'passed', checks: [], reviewCommentIds: [] }) })))).toEqual([]);
  });
});
