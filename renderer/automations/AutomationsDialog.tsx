import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { AddAutomationForm } from './AddAutomationForm';
import { AutomationRow } from './AutomationRow';
import { useAutomations } from './useAutomations';

/** The project's automations, each with its state, runs and actions, and a form to add one. */
export function AutomationsDialog({ projectId, onClose }: { projectId: string; onClose(): void }) {
  const automations = useAutomations(projectId);

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
            <AutomationRow key={automation.id} automation={automation} onChanged={() => void automations.refresh()} />
          ))}
        </ul>
      )}
      <AddAutomationForm projectId={projectId} onAdded={() => void automations.refresh()} />
    </ModalDialog>
  );
}
