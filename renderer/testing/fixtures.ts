import type { Agent } from '../../shared/entities/agents';
import type { Project } from '../../shared/entities/projects';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Task } from '../../shared/entities/tasks';
import type { Wake } from '../../shared/entities/wake';
import type { Worktree } from '../../shared/entities/worktrees';
import type { KeyPress } from '../keyboard/keyPress';

export { makeMessage } from '../../test-support/inboxMessage';

/**
 * Complete, valid entities for renderer tests. Every factory fills each field with a plain default
 * (project p-aaaaaa, agent a-aaaaaa, nothing started or ended) and takes the fields a test cares about.
 */

export function makeProject(overrides: Partial<Project> = {}): Project {
  return {
    id: 'p-aaaaaa',
    name: 'a',
    path: '/code/a',
    createdAt: 1,
    seq: 1,
    ...overrides,
  };
}

export function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 't-aaaaaa',
    projectId: 'p-aaaaaa',
    ownerAgentId: null,
    label: null,
    command: 'make test',
    cwd: '/code/a',
    state: 'queued',
    exitCode: null,
    signal: null,
    reason: null,
    attempt: 1,
    retryOf: null,
    createdAt: 1,
    startedAt: null,
    endedAt: null,
    pid: null,
    pidStartTime: null,
    logPath: '/logs/t',
    outputBytes: 0,
    seq: 1,
    ...overrides,
  };
}

export function makeAgent(overrides: Partial<Agent> = {}): Agent {
  return {
    id: 'a-aaaaaa',
    projectId: 'p-aaaaaa',
    name: 'Ada',
    role: '',
    profileId: 'fake',
    wakesHeld: false,
    createdAt: 1,
    seq: 1,
    ...overrides,
  };
}

export function makeSession(overrides: Partial<AgentSession> = {}): AgentSession {
  return {
    id: 's-aaaaaa',
    agentId: 'a-aaaaaa',
    projectId: 'p-aaaaaa',
    profileId: 'fake',
    state: 'ready',
    needsInput: false,
    pid: null,
    limitResetsAt: null,
    exitCode: null,
    endReason: null,
    externalSessionId: null,
    quota: null,
    cliVersion: null,
    startedAt: 1,
    endedAt: null,
    seq: 1,
    ...overrides,
  };
}

export function makeWake(overrides: Partial<Wake> = {}): Wake {
  return {
    id: 'w-aaaaaa',
    projectId: 'p-aaaaaa',
    agentId: 'a-aaaaaa',
    messageIds: [],
    state: 'waiting',
    attempts: 0,
    notBefore: null,
    lastError: null,
    createdAt: 1,
    updatedAt: 1,
    seq: 1,
    ...overrides,
  };
}

export function makeWorktree(overrides: Partial<Worktree> = {}): Worktree {
  return {
    agentId: 'a-backnd',
    projectId: 'p-aaaaaa',
    path: '/data/projects/p-aaaaaa/worktrees/backend-ab12',
    folder: '/data/projects/p-aaaaaa/worktrees/backend-ab12',
    branch: 'drover/backend-ab12',
    parentBranch: 'main',
    baseCommit: '1111111111111111111111111111111111111111',
    state: 'ready',
    ownsFolder: true,
    ownsBranch: true,
    portBase: 20_000,
    changedAt: null,
    createdAt: 1,
    seq: 1,
    ...overrides,
  };
}

/** A key press with no modifiers; a test names the key (`key`, or `code` for the physical key). */
export function makeKeyPress(overrides: Partial<KeyPress> = {}): KeyPress {
  return { key: '', code: '', altKey: false, ctrlKey: false, shiftKey: false, metaKey: false, ...overrides };
}
