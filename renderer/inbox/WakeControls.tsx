import type { Agent } from '../../shared/entities/agents';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Wake } from '../../shared/entities/wake';
import { useAccountPauses } from '../accounts/pausedAccounts';
import { FormError } from '../components/FormError';
import { StatusIcon } from '../components/StatusIcon';
import { useNow } from '../components/useNow';
import { usePendingAction } from '../components/usePendingAction';
import type { TaskTone } from '../format/tone';
import { useDroverActions } from '../store/StoreContext';
import { wakeStatus, type WakeTone } from './inboxPresentation';

/** A wake borrows the task tone that means the same (waiting is queued, delivering is running, ...). */
const WAKE_ICON: Readonly<Record<WakeTone, TaskTone>> = {
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
  const { wakeAgent, holdAgentWakes, pauseAgentAccount, resumeAccount } = useDroverActions();
  const account = useAccountPauses().accountOf(agent);
  const action = usePendingAction();
  const now = useNow((wake?.notBefore ?? null) !== null);
  const status = wakeStatus({ agent, session, wake, pending, pausedAccount: account?.paused ? account.label : null }, now);
  const tone = WAKE_ICON[status.tone];
  // An idle wake has nothing to flag, so its line keeps a plain edge.
  const edge = status.tone === 'idle' ? undefined : tone;

  return (
    <section className="wake-status" data-tone={edge} aria-label="Wake">
      <StatusIcon tone={tone} />
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
        {account && (
          <button
            type="button"
            className="button button--compact"
            disabled={action.pending}
            title={
              account.paused
                ? `Drover wakes no agent of ${account.label} until you resume it`
                : `Hold the wakes of every agent of ${account.label}, in every project, until you resume it`
            }
            onClick={() => void action.run(() => (account.paused ? resumeAccount(account.key) : pauseAgentAccount(agent.id)))}
          >
            {account.paused ? `Resume ${account.label}` : `Pause all ${account.label} agents`}
          </button>
        )}
      </div>
      <FormError message={action.error} className="wake-status__error" />
    </section>
  );
}
