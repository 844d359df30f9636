import { useId } from 'react';
import type { PausedAccount } from '../../shared/appSettings';
import { countOf } from '../../shared/plural';
import { PausedAccountsList } from '../accounts/PausedAccountsList';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { StatusBadge } from '../components/StatusBadge';
import { useNow } from '../components/useNow';
import { systemNotifier } from '../transport/systemNotifications';
import { presentItem } from './attentionPresentation';
import { NotificationPermission } from './NotificationSettings';
import { entryPlace, type QueueEntry } from './queueAcrossMachines';

interface AttentionPanelProps {
  queue: readonly QueueEntry[];
  /** Items of several machines: each names its machine. */
  acrossMachines: boolean;
  paused: readonly PausedAccount[];
  onGoTo(entry: QueueEntry): void;
  onClose(): void;
}

/** Dismisses each entry in the store of its own machine. */
function dismiss(entries: readonly QueueEntry[]): void {
  const byStore = new Map<QueueEntry['actions'], string[]>();
  for (const { actions, item } of entries) byStore.set(actions, [...(byStore.get(actions) ?? []), item.key]);
  for (const [actions, keys] of byStore) actions.markHandled(keys);
}

/** The Needs you queue as a list: go to an item, or dismiss it (it comes back only if it happens again). */
export function AttentionPanel({ queue, acrossMachines, paused, onGoTo, onClose }: AttentionPanelProps) {
  const sending = usePendingAction();
  const now = useNow(queue.some((entry) => entry.item.kind === 'limited'));
  const summaryId = useId();

  return (
    <ModalDialog title="Needs you" className="attention-panel" onClose={onClose}>
      <p id={summaryId} className="attention-panel__summary">
        {queue.length === 0
          ? paused.length === 0
            ? 'Nothing needs you right now.'
            : `${countOf(paused.length, 'paused account')}; nothing else needs you right now.`
          : `${countOf(queue.length, 'item')} across ${countOf(new Set(queue.map((entry) => `${entry.machine ?? ''}:${entry.item.projectId}`)).size, 'project')}${acrossMachines ? ` on ${countOf(new Set(queue.map((entry) => entry.machine)).size, 'machine')}` : ''}, most urgent first.`}
      </p>
      <PausedAccountsList paused={paused} />
      {queue.length > 0 && (
        <ul className="attention-list" aria-describedby={summaryId}>
          {queue.map((entry, index) => {
            const { item } = entry;
            const { status, subject, detail } = presentItem(item, now);
            const project = entryPlace(entry, acrossMachines);
            return (
              <li key={`${entry.machine ?? ''}:${item.key}`} className="attention-item" aria-label={`${subject}: ${status.label}, ${project}`}>
                <button type="button" className="attention-item__go" data-autofocus={index === 0 || undefined} onClick={() => onGoTo(entry)}>
                  <StatusBadge status={status} final={'task' in item} />
                  <span className="attention-item__subject">{subject}</span>
                  <span className="attention-item__detail">{detail}</span>
                  <span className="attention-item__project">{project}</span>
                </button>
                {(item.kind === 'checks-failed' || item.kind === 'review-comments') && (
                  <button
                    type="button"
                    className="button"
                    aria-label={`Send the ${item.kind === 'checks-failed' ? 'failed checks' : 'review comments'} to ${subject}`}
                    disabled={sending.pending}
                    onClick={() => void sending.run(() => entry.actions.sendForgeFeedback(item.agent.id, item.kind === 'checks-failed' ? 'failed-checks' : 'review-comments'), 'Could not send it: ')}
                  >
                    Send to agent
                  </button>
                )}
                {item.kind === 'agents-conflict' && (
                  <button
                    type="button"
                    className="button"
                    aria-label={`Tell ${subject} where their branches conflict`}
                    disabled={sending.pending}
                    onClick={() =>
                      void sending.run(async () => {
                        await entry.actions.tellOverlapAgents(item.projectId, item.conflict.agents);
                        dismiss([entry]);
                      }, 'Could not tell them: ')
                    }
                  >
                    Tell both agents
                  </button>
                )}
                <button type="button" className="button button--ghost" aria-label={`Dismiss ${subject}`} onClick={() => dismiss([entry])}>
                  Dismiss
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <FormError message={sending.error} />
      {systemNotifier().permission() === 'default' && <NotificationPermission />}
      {queue.length > 1 && (
        <div className="dialog__actions">
          <button type="button" className="button" onClick={() => dismiss(queue)}>
            Dismiss all
          </button>
        </div>
      )}
    </ModalDialog>
  );
}
