import { useCallback, useEffect, useRef, useState } from 'react';
import { isTaskFinished, type Task } from '../../../shared/entities';
import { FormError } from '../../components/FormError';
import { ModalDialog } from '../../components/ModalDialog';
import { StatusBadge } from '../../components/StatusBadge';
import { formatBytes } from '../../format/bytes';
import { TASK_STATUS, taskOutcome, taskTitle } from '../../format/taskPresentation';
import { useBridge } from '../../store/StoreContext';
import { TerminalView, type OutputSink } from '../../terminal/TerminalView';
import { TaskTime } from '../TaskTime';
import { TaskOutputFollower, type FollowerStatus } from './taskOutputFollower';

export function TaskOutputDialog({ task, onClose }: { task: Task; onClose(): void }) {
  const bridge = useBridge();
  const followerRef = useRef<TaskOutputFollower | null>(null);
  const [status, setStatus] = useState<FollowerStatus>({ loading: true, earlierBytes: 0, error: null });
  const taskId = task.id;

  const follow = useCallback(
    (sink: OutputSink) => {
      const follower = new TaskOutputFollower(bridge, taskId, sink, setStatus);
      followerRef.current = follower;
      follower.start();
      return () => {
        follower.stop();
        followerRef.current = null;
      };
    },
    [bridge, taskId],
  );

  // The log is complete once the task ends; read its last bytes then.
  const finished = isTaskFinished(task.state);
  useEffect(() => {
    if (finished) followerRef.current?.refresh();
  }, [finished]);

  const title = taskTitle(task);
  const outcome = taskOutcome(task);
  return (
    <ModalDialog
      className="output-dialog"
      title={`Output: ${title}`}
      onClose={onClose}
      headerExtras={
        <span className="output-dialog__meta">
          <StatusBadge status={TASK_STATUS[task.state]} />
          {outcome && <span>{outcome}</span>}
          <TaskTime task={task} />
          <span>#{task.attempt}</span>
        </span>
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
      <TerminalView onReady={follow} label={`Output of ${title}`} />
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
