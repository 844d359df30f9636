import type { AgentSession } from './entities/sessions';
import type { Task } from './entities/tasks';
import { tasksWorkingIn } from './folders';
import { countOf, listNames } from './plural';

/**
 * Why the agent's worktree cannot be restored now (or a change in it reverted), as the host refuses
 * it and the changes view says beside its button: the agent is in a turn, or tasks work in its
 * worktree (their files would change under them). Null when nothing stands in the way.
 */
export function restoreRefusal(
  agentName: string,
  session: Pick<AgentSession, 'state'> | undefined,
  tasks: Iterable<Task>,
  worktreePath: string,
  verb: 'restore' | 'revert' = 'restore',
): string | null {
  if (session?.state === 'busy') return `${agentName} is busy: ${verb} once its turn has ended (or stop it first).`;
  const working = tasksWorkingIn(tasks, worktreePath);
  if (working.length === 0) return null;
  const one = working.length === 1;
  const names = listNames(working.map((task) => task.label ?? task.command));
  return `${one ? names : `${countOf(working.length, 'task')} (${names})`} ${one ? 'works' : 'work'} in ${agentName}'s worktree: ${verb} once ${one ? 'it has' : 'they have'} ended (or cancel ${one ? 'it' : 'them'}).`;
}
