import { useId, useState } from 'react';
import { READ_ONLY_DROVER_TOOLS } from '../../shared/droverTools';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { useProjectSettings } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';

/**
 * The project page's word on how its agents' CLIs approve Drover's tools, and the dialog that
 * changes it: by default they ask the person before every tool that acts; the project may
 * pre-approve them all.
 */
export function AgentToolsSetting({ projectId, projectName }: { projectId: string; projectName: string }) {
  const { settings } = useProjectSettings(projectId);
  const [open, setOpen] = useState(false);
  const preApproved = settings?.preApproveDroverTools ?? false;
  return (
    <>
      <button
        type="button"
        className="button button--ghost"
        title="Whether this project's agents ask you before they use Drover's tools"
        onClick={() => setOpen(true)}
      >
        Agent tools: {preApproved ? 'pre-approved' : 'ask first'}
      </button>
      {open && <AgentToolsDialog projectId={projectId} projectName={projectName} onClose={() => setOpen(false)} />}
    </>
  );
}

function AgentToolsDialog({ projectId, projectName, onClose }: { projectId: string; projectName: string; onClose(): void }) {
  const { updateProjectSettings } = useDroverActions();
  const { settings, error: loadError } = useProjectSettings(projectId);
  const save = usePendingAction();
  const hintId = useId();
  const readers = READ_ONLY_DROVER_TOOLS.join(', ');

  return (
    <ModalDialog title="Drover's tools for agents" className="agent-tools-dialog" onClose={onClose}>
      <div className="form-grid">
        <p className="field-hint">
          Agents use Drover through its tools. The ones that only read ({readers}) run without asking. The others act:{' '}
          <code>run_in_background</code> runs any shell command as you, outside the agent CLI&apos;s own sandbox and approval rules;{' '}
          <code>cancel_task</code> and <code>retry_task</code> stop or rerun tasks; <code>send_message</code>, <code>ask_agent</code> and{' '}
          <code>reply</code> put text into another agent&apos;s prompt. By default the agent&apos;s CLI asks you before each of those, and
          the agent shows <strong>Needs input</strong> until you answer.
        </p>
        <label className="settings-check">
          <input
            type="checkbox"
            checked={settings?.preApproveDroverTools ?? false}
            disabled={settings === undefined}
            aria-busy={save.pending}
            aria-describedby={hintId}
            onChange={(event) => {
              const preApproveDroverTools = event.target.checked;
              void save.run(() => updateProjectSettings(projectId, { preApproveDroverTools }), 'Could not save the setting: ');
            }}
          />
          Pre-approve every Drover tool for {projectName}&apos;s agents
        </label>
        <p id={hintId} className="field-hint">
          Then they run without a question: an agent misled by something it read (a web page, a file, another agent&apos;s message) could run
          any command as you. Agents started from now on follow the change; restart a running agent for it to apply.
        </p>
        <FormError message={save.error ?? (loadError ? `Could not read the settings: ${loadError}` : null)} />
      </div>
    </ModalDialog>
  );
}
