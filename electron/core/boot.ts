import type { Project } from '../../shared/entities/projects';
import { removeAgent } from './agents/agentAnnouncer';
import type { EventBus } from './events/eventBus';
import type { MediatedInbox } from './inbox/mediatedInbox';
import type { MergeQueueService } from './mergeQueue/mergeQueueService';
import { announceTask } from './tasks/taskAnnouncer';
import { postMissingResults } from './tasks/taskCompletionSink';
import type { ProjectRegistry } from './projects/projectRegistry';
import type { SessionService } from './sessions/sessionService';
import type { ProjectStore, ProjectStores } from './storage/projectStores';
import { reconcileTasks } from './tasks/reconcile';
import type { AgentWakeService } from './wake/agentWakeService';
import type { WorktreeService } from './worktrees/worktreeService';

export interface BootParts {
  projects: ProjectRegistry;
  stores: ProjectStores;
  sessions: SessionService;
  wakes: AgentWakeService;
  inbox: MediatedInbox;
  worktrees: WorktreeService;
  mergeQueue: MergeQueueService;
  events: EventBus;
  log(line: string): void;
}

/** A project whose worktrees cannot be reconciled (git is gone) still boots; the next boot tries again. */
function reconcileWorktrees(parts: BootParts, store: ProjectStore, project: Project): { undone: number; missing: number } {
  try {
    return parts.worktrees.reconcile(store, project, (agentId) => removeAgent(parts.events, store, agentId));
  } catch (error) {
    parts.log(`could not reconcile the worktrees of ${project.name} (${project.id}): ${error instanceof Error ? error.message : String(error)}`);
    return { undone: 0, missing: 0 };
  }
}

/**
 * Boot reconciliation, before anything is served: each project's work state is brought in line with
 * a world in which nothing Drover ran survived. A project whose store cannot be opened is reported
 * and skipped; the others boot.
 */
export function reconcileProjects(parts: BootParts): void {
  for (const project of parts.projects.list().projects) {
    try {
      const store = parts.stores.get(project.id);
      // Worktrees first: an agent whose worktree a crash left half-made goes with it.
      const worktrees = reconcileWorktrees(parts, store, project);
      // Sessions next: results of interrupted tasks must not find an agent that still looks ready.
      const endedSessions = parts.sessions.reconcile(store);
      const resumedWakes = parts.wakes.reconcile(store);
      const requeued = parts.mergeQueue.reconcile(store);
      const { report, changed } = reconcileTasks(store.tasks);
      for (const task of changed) announceTask(parts.events, task);
      postMissingResults(store, parts.inbox);
      parts.log(
        `reconciled project ${project.name} (${project.id}): ${report.interrupted} interrupted, ${report.cancelled} cancelled, ` +
          `${report.killed} leftover process groups killed, ${report.queued} queued to start, ` +
          `${endedSessions} agent sessions ended by the restart, ${resumedWakes} wakes back to waiting, ` +
          `${worktrees.undone} half-made worktrees undone, ${worktrees.missing} worktrees whose folder vanished, ` +
          `${requeued} merge queue entries taken again`,
      );
    } catch (error) {
      parts.log(`could not reconcile project ${project.name} (${project.id}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
