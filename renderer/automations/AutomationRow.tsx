import { useEffect, useId, useRef, useState } from 'react';
import { describeAction, describeTrigger, type Automation } from '../../shared/automations';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { formatDateTime } from '../format/dateTime';
import { useBridge } from '../store/StoreContext';
import type { FocusTarget } from '../store/focusRequest';
import { AutomationForm } from './AutomationForm';
import { AutomationHistory } from './AutomationHistory';

interface AutomationRowProps {
  automation: Automation;
  /** After an action: the list is read again. */
  onChanged(): void;
  /** Leaves the dialog for what a run started. */
  onOpenWork(target: FocusTarget): void;
}

function stateWords(automation: Automation): string {
  if (automation.enabled) return 'Enabled';
  return automation.pausedReason ? `Paused: ${automation.pausedReason}` : 'Paused';
}

function nextRunWords(automation: Automation): string {
  if (automation.nextRunAt !== null) return formatDateTime(automation.nextRunAt);
  if (automation.trigger.kind !== 'schedule') return 'on its event';
  return automation.enabled ? '—' : 'none while paused';
}

/** One automation: what sets it off and what it does, its state and runs, and Run now, Pause or Resume, Edit, History and Remove. */
export function AutomationRow({ automation, onChanged, onOpenWork }: AutomationRowProps) {
  const bridge = useBridge();
  const { projectId, name } = automation;
  const action = usePendingAction();
  const [historyShown, setHistoryShown] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [editing, setEditing] = useState(false);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const [revision, setRevision] = useState(0);
  const headingId = useId();
  const historyId = useId();

  async function act(what: () => Promise<unknown>, failurePrefix: string): Promise<void> {
    await action.run(what, failurePrefix);
    setRevision((count) => count + 1);
    onChanged();
  }

  const runNow = () =>
    act(async () => {
      const run = await bridge.call('runAutomation', { projectId, name });
      // The guards' refusal is no failure of the call, but the person asked for a run and got none.
      if (run === null) throw new Error('nothing ran: a run is still going, or today’s cap is reached');
      setHistoryShown(true);
    }, `Could not run ${name}: `);
  const wasEditing = useRef(false);
  // Saved or cancelled, the focus goes back to Edit (it was in the form, which is gone).
  useEffect(() => {
    if (wasEditing.current && !editing) editButtonRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const stopEditing = () => setEditing(false);
  const pauseOrResume = () =>
    act(() => bridge.call(automation.enabled ? 'pauseAutomation' : 'resumeAutomation', { projectId, name }), `Could not ${automation.enabled ? 'pause' : 'resume'} ${name}: `);

  return (
    <li className="automations-dialog__row">
      <article aria-labelledby={headingId}>
        <h3 id={headingId} className="automations-dialog__name">
          {name}
        </h3>
        <dl className="automations-dialog__facts">
          <dt>When</dt>
          <dd>{describeTrigger(automation.trigger)}</dd>
          <dt>Does</dt>
          <dd>{describeAction(automation.action)}</dd>
          <dt>State</dt>
          <dd>{stateWords(automation)}</dd>
          <dt>Next run</dt>
          <dd>{nextRunWords(automation)}</dd>
          <dt>Last run</dt>
          <dd>{automation.lastRun ? `${automation.lastRun.state}, ${formatDateTime(automation.lastRun.at)}` : 'never'}</dd>
        </dl>
        <div className="automations-dialog__actions">
          <button type="button" className="button button--row" disabled={action.pending} onClick={() => void runNow()}>
            Run now
          </button>
          <button type="button" className="button button--row" disabled={action.pending} onClick={() => void pauseOrResume()}>
            {automation.enabled ? 'Pause' : 'Resume'}
          </button>
          <button ref={editButtonRef} type="button" className="button button--row" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            Edit
          </button>
          <button type="button" className="button button--row" aria-expanded={historyShown} aria-controls={historyId} onClick={() => setHistoryShown(!historyShown)}>
            History
          </button>
          <button type="button" className="button button--row button--danger" disabled={action.pending} onClick={() => setRemoving(true)}>
            Remove
          </button>
        </div>
        <FormError message={action.error} />
        {editing && (
          <AutomationForm
            projectId={projectId}
            editing={automation}
            onSaved={() => {
              stopEditing();
              setRevision((count) => count + 1);
              onChanged();
            }}
            onCancel={stopEditing}
          />
        )}
        <div id={historyId} hidden={!historyShown}>
          {historyShown && <AutomationHistory projectId={projectId} name={name} revision={revision} onOpenWork={onOpenWork} />}
        </div>
      </article>
      {removing && (
        <ConfirmDialog
          title={`Remove the automation ${name}?`}
          confirmLabel="Remove"
          onConfirm={async () => {
            await bridge.call('removeAutomation', { projectId, name });
            onChanged();
          }}
          onClose={() => setRemoving(false)}
        >
          It will not run again. A task or agent it started keeps going.
        </ConfirmDialog>
      )}
    </li>
  );
}
