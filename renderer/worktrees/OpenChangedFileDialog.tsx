import type { Agent } from '../../shared/entities/agents';
import type { Worktree } from '../../shared/entities/worktrees';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { useOpenInEditor } from '../components/useOpenInEditor';
import { firstChangedLineOf } from './commentLines';
import { WHOLE_BRANCH } from './diffScope';
import { useWorktreeDiff } from './useWorktreeDiff';

interface OpenChangedFileDialogProps {
  agent: Agent;
  worktree: Worktree;
  onClose(): void;
}

/** The palette's "Open file in editor…": the files the agent's branch changed, each opened at its first change. */
export function OpenChangedFileDialog({ agent, worktree, onClose }: OpenChangedFileDialogProps) {
  const { diff, error } = useWorktreeDiff(worktree, WHOLE_BRANCH);
  const editor = useOpenInEditor(onClose);
  const files = (diff?.files ?? []).filter((file) => file.status !== 'deleted');
  return (
    <ModalDialog title={`Open a file ${agent.name} changed`} className="open-file-dialog" onClose={onClose}>
      <FormError message={error && `Could not read the changes: ${error}`} />
      {diff === null ? (
        !error && <p role="status">Reading the changes…</p>
      ) : files.length === 0 ? (
        <p>{worktree.branch} changes no file yet that could be opened.</p>
      ) : (
        <ul className="open-file-dialog__files" aria-label="Changed files">
          {files.map((file) => (
            <li key={file.path}>
              <button
                type="button"
                className="button button--ghost"
                aria-label={`Open ${file.path} in editor`}
                onClick={() => editor.open({ projectId: agent.projectId, agentId: agent.id, file: file.path, line: firstChangedLineOf(file) })}
              >
                <code>{file.path}</code>
              </button>
            </li>
          ))}
        </ul>
      )}
      {editor.opened && <p role="status">{editor.opened}</p>}
      <FormError message={editor.error} />
    </ModalDialog>
  );
}
