import { describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { Task } from '../../shared/entities/tasks';
import { makeAgent, makeMessage, makeTask, makeWorktree } from '../testing/fixtures';
import { agentWork, branchOfFolder, inboxesByAgent } from './selectors';

const agent = (id: string, name: string) => makeAgent({ id, name });
const message = (id: string, changes: Partial<InboxMessage>) => makeMessage({ id, agentId: 'a-archit', ...changes });
const task = (id: string, state: Task['state'], ownerAgentId: string | null) => makeTask({ id, state, ownerAgentId, command: 'make', cwd: '/code' });

describe('inboxesByAgent', () => {
  it('groups messages by the agent that holds them, newest first', () => {
    const grouped = inboxesByAgent([
      message('m-1', { createdAt: 10 }),
      message('m-2', { agentId: 'a-backnd', createdAt: 20 }),
      message('m-3', { createdAt: 30 }),
      message('m-4', { createdAt: 30, seq: 2 }),
    ]);
    expect(grouped.get('a-archit')?.map((m) => m.id)).toEqual(['m-4', 'm-3', 'm-1']);
    expect(grouped.get('a-backnd')?.map((m) => m.id)).toEqual(['m-2']);
  });
});

describe('agentWork', () => {
  const architect = agent('a-archit', 'Architect');
  it('counts messages new to the person, whatever the agent did with them, and the queued and running tasks the agent owns by id or by name', () => {
    const tasks = [
      task('t-1', 'queued', 'a-archit'),
      task('t-2', 'running', 'Architect'),
      task('t-3', 'cancelling', 'a-archit'),
      task('t-4', 'running', 'Backend'),
      task('t-5', 'queued', null),
    ];
    const inbox = [message('m-1', { state: 'pending' }), message('m-2', { state: 'read' }), message('m-3', { state: 'delivered', seenAt: 5 })];
    expect(agentWork(architect, tasks, inbox, {})).toEqual({ newMessages: 2, queued: 1, running: 2, newResults: [] });
  });

  it('links new task results to their finished tasks through taskId', () => {
    const done = task('t-done', 'succeeded', 'a-archit');
    const tasksById = { 't-done': done, 't-seen': task('t-seen', 'failed', 'a-archit') };
    const inbox = [
      message('m-1', { kind: 'task-result', taskId: 't-done', state: 'read' }),
      message('m-2', { kind: 'task-result', taskId: 't-seen', state: 'delivered', seenAt: 5 }),
    ];
    expect(agentWork(architect, Object.values(tasksById), inbox, tasksById).newResults).toEqual([done]);
  });

  it('is all zeros for an agent with nothing going on', () => {
    expect(agentWork(architect, [], undefined, {})).toEqual({ newMessages: 0, queued: 0, running: 0, newResults: [] });
  });
});

describe('branchOfFolder', () => {
  it('names the branch of the worktree a folder lies in, and no other', () => {
    const worktrees = [makeWorktree({ path: '/wt/backend-ab12', branch: 'drover/backend-ab12' }), makeWorktree({ path: '/wt/docs-cd34', branch: 'drover/docs-cd34' })];
    expect(branchOfFolder('/wt/docs-cd34', worktrees)).toBe('drover/docs-cd34');
    expect(branchOfFolder('/wt/backend-ab12/src', worktrees)).toBe('drover/backend-ab12');
    expect(branchOfFolder('/wt/backend-ab123', worktrees)).toBeNull();
    expect(branchOfFolder('/code/project', worktrees)).toBeNull();
  });
});
