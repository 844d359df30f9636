import { isInside } from '../../../shared/folders';
import { fail } from '../errors';

/**
 * Worktrees whose files Drover is rewriting (a restore): no task starts in one meanwhile, since its
 * files would change under it. Tasks already queued or running there are refused by whoever holds
 * it, before it holds it.
 */
export class WorktreeHolds {
  /** What each held worktree's folder is held for, said as the reason a task cannot start there. */
  private readonly held = new Map<string, string>();

  /** Holds the worktree at `folder` for `what` (the reason, in plain words) until the returned release runs. */
  hold(folder: string, what: string): () => void {
    this.held.set(folder, what);
    return () => {
      this.held.delete(folder);
    };
  }

  /** Fails, saying why, when `folder` lies in a held worktree. */
  refuseTaskIn(folder: string): void {
    for (const [root, what] of this.held) if (isInside(root, folder)) fail('invalid-state', `${what}: start the task once that has ended.`);
  }
}
