import type { Agent, AgentSession, Wake } from '../../shared/entities';
import { usePendingAction } from '../components/usePendingAction';
import { useDroverActions } from '../store/StoreContext';
import { StatusIcon } from '../workState/StatusBadge';
import type { StatusTone } from '../workState/taskPresentation';
import { useNow } from '../workState/useNow';
import { wakeStatus, type WakeTone } from './inboxPresentation';

const WAKE_ICON: Readonly<Record<WakeTone, StatusTone>> = {
  idle: 'cancelled',
  held: 'interrupted',
  waiting: 'queued',
  delivering: 'running',
  delivered: 'done',
  failed: 'failed',
};

interface WakeControlsProps {
  agent: Agent;
  session: AgentSession | undefined;
  wake: Wake | undefined;
  pending: number;
}

/** How Drover will deliver the agent's pending messages, with a person's override and hold. */
export function WakeControls({ agent, session, wake, pending }: WakeControlsProps) {
  const { wakeAgent, holdAgentWakes } = useDroverActions();
  const action = usePendingAction();
  const now = useNow((wake?.notBefore ?? null) !== null);
  const status = wakeStatus({ agent, session, wake, pending }, now);

  return (
    <section className={`wake-status wake-status--${status.tone}`} aria-label="Wake">
      <StatusIcon tone={WAKE_ICON[status.tone]} />
      <div className="wake-status__text">
        <p className="wake-status__label">{status.label}</p>
        {status.detail && <p className="wake-status__detail">{status.detail}</p>}
      </div>
      <div className="wake-status__actions">
        <button
          type="button"
          className="button button--compact"
          disabled={action.pending || pending === 0}
          title={pending === 0 ? 'Nothing waits to be delivered' : `Type the pending messages into ${agent.name}'s terminal now`}
          onClick={() => void action.run(() => wakeAgent(agent.id), `Could not wake ${agent.name}: `)}
        >
          Wake now
        </button>
        <button
          type="button"
          className="button button--compact"
          disabled={action.pending}
          onClick={() => void action.run(() => holdAgentWakes(agent.id, !agent.wakesHeld))}
        >
          {agent.wakesHeld ? 'Resume wakes' : 'Hold wakes'}
        </button>
      </div>
      {action.error && (
        <p role="alert" className="form-error wake-status__error">
          {action.error}
        </p>
      )}
    </section>
  );
}
