import type { WorktreeMethodName } from '../../../shared/contract/worktrees';
import type { Methods } from '../api';
import { PerClient } from '../api';
import type { WorktreeService } from './worktreeService';

/** Agents' worktrees: the repository's branches, diff review, merging back, pushing, disk use. */
export function worktreeMethods(worktrees: WorktreeService): Methods<WorktreeMethodName> {
  const watches = new PerClient(
    () => new Map<string, Promise<() => void>>(),
    (watched) => {
      for (const stop of watched.values()) void stop.then((unwatch) => unwatch(), () => {});
      watched.clear();
    },
  );
  return {
    getProjectGit: ({ projectId }) => worktrees.projectGit(projectId),
    listWorktrees: ({ projectId }) => worktrees.list(projectId),
    getWorktreeStatus: ({ agentId }) => worktrees.status(agentId),
    getWorktreeDiff: ({ agentId }) => worktrees.diff(agentId),
    watchWorktree: async ({ agentId }, client) => {
      const watched = watches.of(client);
      if (!watched.has(agentId)) {
        const stop = worktrees.watch(agentId);
        watched.set(agentId, stop);
        try {
          await stop;
        } catch (error) {
          watched.delete(agentId);
          throw error;
        }
      }
      return { agentId };
    },
    unwatchWorktree: async ({ agentId }, client) => {
      const watched = watches.of(client);
      const stop = watched.get(agentId);
      watched.delete(agentId);
      if (stop) (await stop)();
      return { agentId };
    },
    checkWorktreeMerge: ({ agentId }) => worktrees.checkMerge(agentId),
    mergeWorktree: ({ agentId, strategy, message }) => worktrees.merge(agentId, strategy, message),
    handBackWorktreeConflicts: ({ agentId }) => worktrees.handBack(agentId),
    pushWorktreeBranch: ({ agentId, remote }) => worktrees.push(agentId, remote),
    getWorktreeDiskUsage: ({ projectId }) => worktrees.diskUsage(projectId),
  };
}
