import { useId } from 'react';
import type { PausedAccount } from '../../shared/appSettings';
import { countOf } from '../../shared/plural';
import { PausedAccountsList } from '../accounts/PausedAccountsList';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { StatusBadge } from '../components/StatusBadge';
import { useNow } from '../components/useNow';
import type { AttentionItem } from '../store/attention';
import { useProjects } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { systemNotifier } from '../transport/systemNotifications';
import { presentItem } from './attentionPresentation';
import { NotificationPermission } from './NotificationSettings';

interface AttentionPanelProps {
  queue: readonly AttentionItem[];
  paused: readonly PausedAccount[];
  onGoTo(item: AttentionItem): void;
  onClose(): void;
}

/** The Needs you queue as a list: go to an item, or dismiss it (it comes back only if it happens again). */
export function AttentionPanel({ queue, paused, onGoTo, onClose }: AttentionPanelProps) {
  const { markHandled, sendForgeFeedback } = useDroverActions();
  const sending = usePendingAction();
  const projects = useProjects().byId;
  const now = useNow(queue.some((item) => item.kind === 'limited'));
  const summaryId = useId();

  return (
    <ModalDialog title="Needs you" className="attention-panel" onClose={onClose}>
      <p id={summaryId} className="attention-panel__summary">
        {queue.length === 0
          ? paused.length === 0
            ? 'Nothing needs you right now.'
            : `${countOf(paused.length, 'paused account')}; nothing else needs you right now.`
          : `${countOf(queue.length, 'item')} across ${countOf(new Set(queue.map((item) => item.projectId)).size, 'project')}, most urgent first.`}
      </p>
      <PausedAccountsList paused={paused} />
      {queue.length > 0 && (
        <ul className="attention-list" aria-describedby={summaryId}>
          {queue.map((item, index) => {
            const { status, subject, detail } = presentItem(item, now);
            const project = projects[item.projectId]?.name ?? item.projectId;
            return (
              <li key={item.key} className="attention-item" aria-label={`${subject}: ${status.label}, ${project}`}>
                <button type="button" className="attention-item__go" data-autofocus={index === 0 || undefined} onClick={() => onGoTo(item)}>
                  <StatusBadge status={status} />
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
                    onClick={() => void sending.run(() => sendForgeFeedback(item.agent.id, item.kind === 'checks-failed' ? 'failed-checks' : 'review-comments'), 'Could not send it: ')}
                  >
                    Send to agent
                  </button>
                )}
                <button type="button" className="button button--ghost" aria-label={`Dismiss ${subject}`} onClick={() => markHandled([item.key])}>
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
          <button type="button" className="button" onClick={() => markHandled(queue.map((item) => item.key))}>
            Dismiss all
          </button>
        </div>
      )}
    </ModalDialog>
  );
}
