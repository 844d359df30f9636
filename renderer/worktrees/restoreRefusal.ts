import type { AgentSession, Task } from '../../shared/entities';
import { countOf } from '../../shared/plural';
import { taskTitle } from '../format/taskPresentation';
import { tasksWorkingIn } from '../store/selectors';

/**
 * Why the agent's worktree cannot be restored now, in the words the host refuses it with: the
 * agent is in a turn, or tasks work in its worktree (their files would change under them). Null
 * when nothing stands in the way.
 */
export function restoreRefusal(agentName: string, session: Pick<AgentSession, 'state'> | undefined, tasks: readonly Task[], worktreePath: string): string | null {
  if (session?.state === 'busy') return `${agentName} is busy: restore once its turn has ended.`;
  const working = tasksWorkingIn(tasks, worktreePath);
  if (working.length === 0) return null;
  const one = working.length === 1;
  const names = working.map(taskTitle).join(', ');
  return `${one ? names : `${countOf(working.length, 'task')} (${names})`} ${one ? 'works' : 'work'} in ${agentName}'s worktree: restore once ${one ? 'it has' : 'they have'} ended (or cancel ${one ? 'it' : 'them'}).`;
}
