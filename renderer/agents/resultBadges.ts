import { countOf } from '../../shared/plural';
import type { Task, TaskState } from '../../shared/entities/tasks';
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

/** The ending a summary takes its tone from: the one that most needs the person. */
const URGENCY: readonly EndState[] = ['failed', 'interrupted', 'cancelled', 'succeeded'];

const PLAIN: Readonly<Record<EndState, string>> = { succeeded: 'done', failed: 'failed', cancelled: 'cancelled', interrupted: 'interrupted' };

/**
 * How the agent's new results (not yet seen in its inbox) ended, as one badge: the ending's own words when they all ended
 * alike ("Tasks failed 2"), otherwise one summary in the tone of the most pressing ending ("5
 * results, 2 failed"), so that a pane header never grows with the results.
 */
export function resultBadges(newResults: readonly Task[]): CountBadge[] {
  const counts = URGENCY.map((state) => ({ state, tasks: newResults.filter((task) => task.state === state) })).filter(({ tasks }) => tasks.length > 0);
  const [worst] = counts;
  if (!worst) return [];
  const title = `New result: ${newResults.map(taskTitle).join(', ')}`;
  if (counts.length === 1) {
    const words = ENDINGS[worst.state];
    const count = worst.tasks.length;
    return [{ tone: TASK_STATUS[worst.state].tone, count, text: count === 1 ? words.one : `${words.many} ${count}`, name: `${words.one}: ${countOf(count, 'new result')}`, title }];
  }
  const total = newResults.length;
  const parts = counts.map(({ state, tasks }) => `${tasks.length} ${PLAIN[state]}`).join(', ');
  const headline = worst.state === 'succeeded' ? `${total} results` : `${total} results, ${worst.tasks.length} ${PLAIN[worst.state]}`;
  return [{ tone: TASK_STATUS[worst.state].tone, count: total, text: headline, name: `${countOf(total, 'new result')}: ${parts}`, title }];
}
