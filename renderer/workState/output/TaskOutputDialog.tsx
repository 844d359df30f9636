import { useCallback, useEffect, useRef, useState } from 'react';
import { isTaskFinished, type Task } from '../../../shared/entities/tasks';
import { copyText } from '../../components/copyText';
import { FormError } from '../../components/FormError';
import { useOpenInEditor } from '../../components/useOpenInEditor';
import { ModalDialog } from '../../components/ModalDialog';
import { usePendingAction } from '../../components/usePendingAction';
import { useModal } from '../../components/useModal';
import { formatBytes } from '../../format/bytes';
import { canCancel, canRetry, taskOutcome, taskTitle } from '../../format/taskPresentation';
import { outputCommandFor } from '../../keyboard/shortcuts';
import { useDialogKeyDown } from '../../keyboard/useDialogKeyDown';
import { useBridge } from '../../store/StoreContext';
import { TerminalView, type OutputSink, type ShownText } from '../../terminal/TerminalView';
import type { TaskRowActions } from '../TaskRow';
import { TaskStatusBadge } from '../TaskStatusBadge';
import { TaskTime } from '../TaskTime';
import { TaskOutputFollower, type FollowerStatus } from './taskOutputFollower';

interface TaskOutputDialogProps extends Pick<TaskRowActions, 'onCancel' | 'onRetry'> {
  task: Task;
  /** Why it cannot run again although it ended, if it cannot. */
  retryRefusal: string | null;
  onClose(): void;
}

/** A task's output, followed live, with what its row offers: cancel, retry (`c`, `r` as in the list), and copy. */
export function TaskOutputDialog({ task, retryRefusal, onCancel, onRetry, onClose }: TaskOutputDialogProps) {
  const bridge = useBridge();
  const dialogRef = useModal();
  const followerRef = useRef<TaskOutputFollower | null>(null);
  const shownTextRef = useRef<ShownText | null>(null);
  const [status, setStatus] = useState<FollowerStatus>({ loading: true, earlierBytes: 0, error: null });
  const copy = usePendingAction();
  const [copied, setCopied] = useState(false);
  const editor = useOpenInEditor(onClose);
  const taskId = task.id;

  const follow = useCallback(
    (sink: OutputSink, shownText: ShownText) => {
      const follower = new TaskOutputFollower(bridge, taskId, sink, setStatus);
      followerRef.current = follower;
      shownTextRef.current = shownText;
      follower.start();
      return () => {
        follower.stop();
        followerRef.current = null;
        shownTextRef.current = null;
      };
    },
    [bridge, taskId],
  );

  // The log is complete once the task ends; read its last bytes then.
  const finished = isTaskFinished(task.state);
  useEffect(() => {
    if (finished) followerRef.current?.refresh();
  }, [finished]);

  const cancellable = canCancel(task);
  const retryable = canRetry(task) && retryRefusal === null;
  useDialogKeyDown(dialogRef, (event) => {
    const command = outputCommandFor(event);
    if (!command) return;
    event.preventDefault();
    if (command === 'cancel') onCancel(task);
    else if (retryable) onRetry(task);
  });

  // Copy stays enabled while it works (it says so with aria-disabled): a focused button that turns
  // disabled loses the focus to the page, and the dialog its c and r.
  const copyBusy = copy.pending || status.loading;
  const copyOutput = () => {
    if (copyBusy) return;
    void copy.run(async () => {
      setCopied(false);
      await copyText(shownTextRef.current?.() ?? '');
      setCopied(true);
    }, 'Could not copy the output: ');
  };

  const title = taskTitle(task);
  const outcome = taskOutcome(task);
  return (
    <ModalDialog
      className="output-dialog"
      title={`Output: ${title}`}
      onClose={onClose}
      dialogRef={dialogRef}
      headerExtras={
        <>
          <span className="output-dialog__meta">
            <TaskStatusBadge state={task.state} />
            {outcome && <span>{outcome}</span>}
            <TaskTime task={task} />
            <span>#{task.attempt}</span>
          </span>
          {editor.opened && (
            <span role="status" className="output-dialog__copied">
              {editor.opened}
            </span>
          )}
          {copied && (
            <span role="status" className="output-dialog__copied">
              Copied
            </span>
          )}
          <button type="button" className="button button--ghost" aria-disabled={copyBusy} onClick={copyOutput}>
            Copy
          </button>
          {cancellable && (
            <button type="button" className="button button--ghost" aria-keyshortcuts="c" onClick={() => onCancel(task)}>
              Cancel
            </button>
          )}
          {canRetry(task) && (
            <button
              type="button"
              className="button button--ghost"
              aria-keyshortcuts="r"
              disabled={!retryable}
              title={retryRefusal ?? undefined}
              onClick={() => onRetry(task)}
            >
              Retry
            </button>
          )}
        </>
      }
    >
      <CommandLines command={task.command} cwd={task.cwd} />
      {status.earlierBytes > 0 && (
        <div className="output-dialog__earlier">
          <span>{formatBytes(status.earlierBytes)} of earlier output not shown.</span>
          <button
            type="button"
            className="button button--ghost"
            disabled={status.loading}
            onClick={() => void followerRef.current?.loadEarlier()}
          >
            Load earlier output
          </button>
        </div>
      )}
      <FormError message={status.error && `Could not read the output: ${status.error}`} />
      <FormError message={copy.error} />
      <FormError message={editor.error} />
      <TerminalView
        onReady={follow}
        label={`Output of ${title}`}
        onFileReference={({ file, line, column }) => editor.open({ projectId: task.projectId, taskId: task.id, file, line, ...(column ? { column } : {}) })}
      />
    </ModalDialog>
  );
}

/**
 * The command as the shell got it, line by line: an error naming "line 2" points at a line shown.
 * A one-line command reads `$ command`; several lines are numbered.
 */
function CommandLines({ command, cwd }: { command: string; cwd: string }) {
  const lines = command.split('\n');
  if (lines.length === 1) {
    return (
      <p className="output-dialog__command" title={cwd}>
        <code>$ {command}</code>
      </p>
    );
  }
  return (
    <ol className="output-dialog__command output-dialog__command--lines" title={cwd} aria-label="Command">
      {lines.map((line, index) => (
        <li key={index}>
          <code>{line}</code>
        </li>
      ))}
    </ol>
  );
}
