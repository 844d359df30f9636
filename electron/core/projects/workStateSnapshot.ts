import type { MethodResult } from '../../../shared/contract';
import type { Task } from '../../../shared/entities/tasks';
import type { ConflictNotice } from '../../../shared/overlaps';
import { fail } from '../errors';
import { PageBudget, takePage } from '../paging';
import type { ProjectStore } from '../storage/projectStores';

type WorkStatePart = MethodResult<'getWorkState'>;

const TASKS = 'tasks:';
const MESSAGES = 'messages:';

/**
 * One part of a project's work-state snapshot, read in one transaction and never more than a
 * page's worth of JSON: the first part holds the seq, agents, sessions, wakes, worktrees, former agents, merge queue and notices, then tasks
 * (newest first) and inbox messages (oldest first) fill the parts until both are exhausted.
 */
export function workStatePart(store: ProjectStore, after: string | undefined, conflictNotices: ConflictNotice[], present: (task: Task) => Task = (task) => task): WorkStatePart {
  return store.transaction(() => {
    const first = after === undefined;
    const budget = new PageBudget();
    const part: WorkStatePart = {
      projectId: store.projectId,
      seq: store.seq.current,
      tasks: [],
      agents: first ? store.agents.list() : [],
      sessions: first ? store.sessions.latestOfEach() : [],
      messages: [],
      wakes: first ? store.wakes.visible() : [],
      worktrees: first ? store.worktrees.list() : [],
      forgeLinks: first ? store.forgeLinks.list() : [],
      formerAgents: first ? store.formerAgents.list() : [],
      mergeQueue: first ? store.mergeQueue.list() : [],
      automations: first ? store.automations.notices(store.projectId) : [],
      conflictNotices: first ? conflictNotices : [],
      next: null,
    };
    if (first) budget.take(JSON.stringify([part.agents, part.sessions, part.wakes, part.worktrees, part.forgeLinks, part.formerAgents, part.mergeQueue, part.automations, part.conflictNotices]).length);
    let messagesAfter: string | undefined;
    if (first || after.startsWith(TASKS)) {
      const taskAfter = first ? undefined : after.slice(TASKS.length) || undefined;
      const tasks = takePage(store.tasks.newestFirst({ after: taskAfter }) ?? fail('not-found', `No task ${taskAfter} to continue the snapshot after.`), budget);
      part.tasks = tasks.items.map(present);
      if (tasks.more) return { ...part, next: `${TASKS}${tasks.items.at(-1)?.id ?? taskAfter ?? ''}` };
    } else {
      messagesAfter = after.slice(MESSAGES.length) || undefined;
    }
    const messages = takePage(store.inbox.oldestFirst({ after: messagesAfter }) ?? fail('not-found', `No message ${messagesAfter} to continue the snapshot after.`), budget);
    part.messages = messages.items;
    return messages.more ? { ...part, next: `${MESSAGES}${messages.items.at(-1)?.id ?? messagesAfter ?? ''}` } : part;
  });
}
