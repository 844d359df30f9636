import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Project } from '../shared/entities/projects';
import type { Worktree } from '../shared/entities/worktrees';
import type { DroverHost } from '../electron/host/host';
import { runCli, type CliResult } from './droverProcess';
import { makeRepo } from './gitRepo';
import { hostPerTest } from './hostPerTest';

/** A host per test (hostPerTest) with one project: a git repository, repo/, that the CLI runs in. */
export interface CliProjectPerTest {
  readonly host: DroverHost;
  readonly repo: string;
  readonly project: Project;
  /** The built CLI run in the repo against the test's host, as a person runs it outside any agent's terminal. */
  cli(args: string[]): Promise<CliResult>;
  /** Adds a shell agent named `name` in a new worktree of its own; returns that worktree (what these tests work in). */
  addAgent(name: string): Promise<Worktree>;
}

/** `files`: what the repo's first commit on main holds. Read the fields inside a test, as hostPerTest's. */
export function cliProjectPerTest(files: Record<string, string>): CliProjectPerTest {
  const running = hostPerTest();
  let project: Project | undefined;
  beforeEach(async () => {
    project = await running.host.core.api.addProject({ path: makeRepo(path.join(running.dir, 'repo'), files) });
  });
  afterEach(() => {
    project = undefined;
  });
  const fixture: CliProjectPerTest = {
    get host() {
      return running.host;
    },
    get repo() {
      return path.join(running.dir, 'repo');
    },
    get project() {
      if (!project) throw new Error('cliProjectPerTest: read its fields inside a test, after its beforeEach');
      return project;
    },
    cli: (args) =>
      runCli(['--data-dir', running.dataDir, ...args], { cwd: fixture.repo, env: { ...process.env, DROVER_SOCKET: '', DROVER_PROJECT_ID: '', DROVER_AGENT_ID: '' } }),
    addAgent: async (name) => {
      const { api } = running.host.core;
      const agent = await api.createAgent({ projectId: fixture.project.id, name, role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
      const worktree = (await api.getWorkState({ projectId: fixture.project.id })).worktrees.find((candidate) => candidate.agentId === agent.id);
      if (!worktree) throw new Error(`${name} has no worktree`);
      return worktree;
    },
  };
  return fixture;
}
