import path from 'node:path';
import type { Agent } from '../shared/entities/agents';
import type { Project } from '../shared/entities/projects';
import type { AgentWorkspaceRequest, Worktree } from '../shared/entities/worktrees';
import { createCore, type Core } from '../electron/core/compose';

/** A core over `dataDir` with one git project, and the few calls worktree tests make of it. */
export interface WorktreeCore {
  core: Core;
  project: Project;
  addAgent(name: string, workspace?: AgentWorkspaceRequest): Promise<Agent>;
  worktreeOf(agent: Agent): Promise<Worktree>;
  /**
   * Closes the core and boots a new one on the same data dir (the boot reconciliation runs);
   * `whileStopped` runs in between, with the project's state file (state.sqlite) closed.
   */
  restart(whileStopped?: (stateFile: string) => void): Promise<void>;
  /** What the boot reconciliation logged. */
  logged(): string[];
  close(): Promise<void>;
}

/** `env`: what the core's agents and tasks start from (default: this process's). */
export async function openWorktreeCore(dir: string, repo: string, env?: NodeJS.ProcessEnv): Promise<WorktreeCore> {
  const lines: string[] = [];
  const boot = () =>
    createCore({
      dataDir: path.join(dir, 'data'),
      version: 'test',
      socketPath: '/unused',
      portBlocksDir: path.join(dir, 'ports'),
      log: (line) => lines.push(line),
      ...(env ? { env } : {}),
    });
  let core = boot();
  const project = await core.api.addProject({ path: repo });
  return {
    get core() {
      return core;
    },
    project,
    addAgent: (name, workspace = { kind: 'new-worktree' }) => core.api.createAgent({ projectId: project.id, name, role: '', profileId: 'shell', workspace }),
    worktreeOf: async (agent) => {
      const found = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((worktree) => worktree.agentId === agent.id);
      if (!found) throw new Error(`${agent.name} has no worktree`);
      return found;
    },
    restart: async (whileStopped) => {
      await core.close();
      whileStopped?.(path.join(dir, 'data', 'projects', project.id, 'state.sqlite'));
      core = boot();
    },
    logged: () => lines,
    close: () => core.close(),
  };
}
