import { useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useDroverActions } from '../store/StoreContext';

/**
 * A project whose state database is missing or empty: Drover never recreates it on its own, so the
 * person chooses between restoring the file from a backup (then Try again) and starting empty.
 */
export function MissingWorkState({ projectId, message }: { projectId: string; message: string }) {
  const { reloadWorkState, startProjectEmpty } = useDroverActions();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="empty-state empty-state--error missing-work-state" role="alert">
      <p>{message}</p>
      <div className="missing-work-state__actions">
        <button type="button" className="button" onClick={() => reloadWorkState(projectId)}>
          Try again
        </button>
        <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
          Start empty…
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Start this project empty?"
          confirmLabel="Start empty"
          onConfirm={() => startProjectEmpty(projectId)}
          onClose={() => setConfirming(false)}
        >
          <p>
            Drover makes a new, empty work state for this project. The tasks, agents and inbox messages of the missing one are not
            recovered. To keep them, restore the file from a backup and choose Try again instead.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
