import type { AgentSession } from '../../shared/entities/sessions';
import { isSessionLive } from '../format/agentPresentation';
import type { InputTarget } from '../terminal/AgentTerminal';

/**
 * A Start or Restart the person asked for, from the click until the page shows the session it
 * made: `seq` is that session's version once the host answered (null until then).
 */
export interface PendingStart {
  seq: number | null;
}

/**
 * The start is over once both are in, in either order: its answer (the seq of the session it made)
 * and, in the page, that session or a newer one (each change of a project's entities has a higher
 * seq). The session's event alone is not enough: until the answer names it, the page cannot tell
 * the new session from the old one.
 */
export function startReached(pending: PendingStart, session: AgentSession | undefined): boolean {
  return pending.seq !== null && session !== undefined && session.seq >= pending.seq;
}

/**
 * Where keys typed into the agent's terminal go. While a start is on its way they are held, even
 * while the old session still runs (a Restart's stop waits for it to exit): they are meant for
 * the new one.
 */
export function inputTarget(pending: PendingStart | null, session: AgentSession | undefined): InputTarget {
  if (pending && !startReached(pending, session)) return 'starting';
  return isSessionLive(session) ? 'live' : 'ended';
}
