import { countOf } from '../../shared/plural';
import type { Task, TaskState } from '../../shared/entities';
import type { CountBadge } from '../components/CountBadges';
import { TASK_STATUS, taskTitle } from '../format/taskPresentation';

type EndState = Extract<TaskState, 'succeeded' | 'failed' | 'cancelled' | 'interrupted'>;

/** How a finished task ended, as a pane badge says it, one word for one task and for several. */
const ENDINGS: Readonly<Record<EndState, { one: string; many: string }>> = {
  succeeded: { one: 'Task done', many: 'Tasks done' },
  failed: { one: 'Task failed', many: 'Tasks failed' },
  cancelled: { one: 'Task cancelled', many: 'Tasks cancelled' },
  interrupted: { one: 'Task interrupted', many: 'Tasks interrupted' },
};

/**
 * One badge per way the agent's unread results ended, in the tone of that ending, so a failure
 * never reads as "done".
 */
export function resultBadges(unreadResults: readonly Task[]): CountBadge[] {
  return (Object.keys(ENDINGS) as EndState[]).map((state) => {
    const ended = unreadResults.filter((task) => task.state === state);
    const words = ENDINGS[state];
    return {
      tone: TASK_STATUS[state].tone,
      count: ended.length,
      text: ended.length === 1 ? words.one : `${words.many} ${ended.length}`,
      name: `${words.one}: ${countOf(ended.length, 'result')} not read yet`,
      title: `Result not read yet: ${ended.map(taskTitle).join(', ')}`,
    };
  });
}
