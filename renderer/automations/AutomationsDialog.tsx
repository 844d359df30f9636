import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { goTo, type FocusTarget } from '../store/focusRequest';
import { AutomationForm } from './AutomationForm';
import { AutomationRow } from './AutomationRow';
import { useAutomations } from './useAutomations';

/** The project's automations, each with its state, runs and actions, and a form to add one. */
export function AutomationsDialog({ projectId, onClose }: { projectId: string; onClose(): void }) {
  const automations = useAutomations(projectId);
  // What a run started is shown on the project page, under the dialog: it closes first.
  const openWork = (target: FocusTarget) => {
    onClose();
    goTo(target);
  };

  return (
    <ModalDialog
      title="Automations"
      className="automations-dialog"
      onClose={onClose}
      headerExtras={
        <button type="button" className="button button--ghost" onClick={() => void automations.refresh()}>
          Refresh
        </button>
      }
    >
      <FormError message={automations.error && `Could not list the automations: ${automations.error}`} />
      {automations.list === null && !automations.error && <p role="status">Loading…</p>}
      {automations.list?.length === 0 && <p>No automations yet: add one below, or with drover automation add.</p>}
      {automations.list && automations.list.length > 0 && (
        <ul className="automations-dialog__list" aria-label="Automations of the project">
          {automations.list.map((automation) => (
            <AutomationRow key={automation.id} automation={automation} onChanged={() => void automations.refresh()} onOpenWork={openWork} />
          ))}
        </ul>
      )}
      <AutomationForm projectId={projectId} onSaved={() => void automations.refresh()} />
    </ModalDialog>
  );
}
