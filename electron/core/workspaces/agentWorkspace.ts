import fs from 'node:fs';
import path from 'node:path';
import type { Agent } from '../../../shared/entities/agents';
import type { Worktree } from '../../../shared/entities/worktrees';
import { isInside } from '../../../shared/folders';
import { fail } from '../errors';
import type { ProjectStore } from '../storage/projectStores';
import { portEnv } from './portBlocks';

/** Where an agent's processes run, and what they find in their environment besides Drover's own variables. */
export interface Workspace {
  folder: string;
  env: Record<string, string>;
}

/** How the agent's terminal learns where to start (SessionService takes this). */
export interface AgentWorkspaces {
  workspaceOf(agent: Agent, projectPath: string): Workspace;
}

function worktreeEnv(worktree: Worktree): Record<string, string> {
  return { ...portEnv(worktree.portBase), DROVER_WORKTREE: worktree.path, DROVER_BRANCH: worktree.branch };
}

/** A folder git can work in as a checkout: it holds its `.git` (for a linked worktree, a file pointing into the repository). */
export function isCheckout(folder: string): boolean {
  return fs.existsSync(path.join(folder, '.git'));
}

/** Fails, saying why, unless the worktree is ready and its folder is there. */
export function requireUsable(agent: Agent, worktree: Worktree): void {
  if (worktree.state === 'creating') fail('invalid-state', `${agent.name}'s worktree is still being made.`);
  if (fs.existsSync(worktree.path) && !isCheckout(worktree.path)) {
    fail(
      'invalid-state',
      `${agent.name}'s worktree folder ${worktree.path} is no longer a git checkout (its branch ${worktree.branch} is kept). Remove the agent, then add it again on that existing branch.`,
    );
  }
  if (worktree.state === 'missing' || !fs.existsSync(worktree.folder)) {
    fail(
      'invalid-state',
      `${agent.name}'s worktree folder ${worktree.path} is gone (its branch ${worktree.branch} is kept). Remove the agent, then add it again on that existing branch.`,
    );
  }
}

/** The agent's worktree folder when it has one (ready, and still there), else the project folder. */
export function workspaceOf(store: ProjectStore, agent: Agent, projectPath: string): Workspace {
  const worktree = store.worktrees.get(agent.id);
  if (!worktree) return { folder: projectPath, env: {} };
  requireUsable(agent, worktree);
  return { folder: worktree.folder, env: worktreeEnv(worktree) };
}

/** The ready worktree of the project that holds `folder`, if any. */
export function worktreeHolding(store: ProjectStore, folder: string): Worktree | undefined {
  return store.worktrees.list().find((worktree) => worktree.state === 'ready' && isInside(worktree.path, folder));
}

/** What a task running in `folder` finds in its environment (its worktree's ports and branch). */
export function envForFolder(store: ProjectStore, folder: string): Record<string, string> {
  const worktree = worktreeHolding(store, folder);
  return worktree ? worktreeEnv(worktree) : {};
}
