import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Agent } from '../shared/entities/agents';
import type { Project } from '../shared/entities/projects';
import type { DroverEvent } from '../shared/events';
import { createCore, type Core } from '../electron/core/compose';
import { makeRepo } from './gitRepo';
import { makeTempDir, removeDir } from './tempDir';

/** Ten numbered lines: what both files of the overlap tests' repository start with. */
export const TEN_LINES = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

/** `text` with the given 1-based lines replaced. */
export const withLines = (text: string, changes: Record<number, string>): string =>
  text
    .split('\n')
    .map((content, index) => changes[index + 1] ?? content)
    .join('\n');

/** A core per test with one git project (shared.txt and other.txt, TEN_LINES each) whose agents work in worktrees of their own. */
export interface OverlapProjectPerTest {
  readonly core: Core;
  readonly project: Project;
  readonly repo: string;
  /** Every event the core emitted in this test, in order. */
  readonly events: DroverEvent[];
  /** Adds a shell agent named `name` in a new worktree. */
  addAgent(name: string): Promise<Agent>;
  /** The agent's worktree folder. */
  folderOf(agent: Agent): Promise<string>;
}

/** Read the fields inside a test, after its beforeEach. */
export function overlapProjectPerTest(): OverlapProjectPerTest {
  let dir = '';
  let core: Core | undefined;
  let project: Project | undefined;
  const events: DroverEvent[] = [];
  beforeEach(async () => {
    dir = makeTempDir();
    const repo = makeRepo(path.join(dir, 'repo'), { 'shared.txt': TEN_LINES, 'other.txt': TEN_LINES });
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', portBlocksDir: path.join(dir, 'ports') });
    events.length = 0;
    core.events.onEvent((event) => events.push(event));
    project = await core.api.addProject({ path: repo });
  });
  afterEach(async () => {
    await core?.close();
    core = undefined;
    project = undefined;
    removeDir(dir);
  });
  const fixture: OverlapProjectPerTest = {
    get core() {
      if (!core) throw new Error('overlapProjectPerTest: read its fields inside a test');
      return core;
    },
    get project() {
      if (!project) throw new Error('overlapProjectPerTest: read its fields inside a test');
      return project;
    },
    get repo() {
      return path.join(dir, 'repo');
    },
    events,
    addAgent: (name) => fixture.core.api.createAgent({ projectId: fixture.project.id, name, role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } }),
    folderOf: async (agent) => {
      const found = (await fixture.core.api.getWorkState({ projectId: fixture.project.id })).worktrees.find((worktree) => worktree.agentId === agent.id);
      if (!found) throw new Error(`${agent.name} has no worktree`);
      return found.path;
    },
  };
  return fixture;
}
