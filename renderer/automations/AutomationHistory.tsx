import { useEffect, useState, type ReactNode } from 'react';
import type { AutomationRun } from '../../shared/automations';
import { FormError } from '../components/FormError';
import { formatDateTime } from '../format/dateTime';
import { taskTitle } from '../format/taskPresentation';
import { errorMessage } from '../format/errorMessage';
import type { FocusTarget } from '../store/focusRequest';
import { useWorkState } from '../store/hooks';
import { useBridge } from '../store/StoreContext';

interface AutomationHistoryProps {
  projectId: string;
  name: string;
  /** Changes after each of the person's actions on the automation, so its runs are read again. */
  revision: number;
  onOpenWork(target: FocusTarget): void;
}

/** An automation's runs, newest first: when, what set it off, how it went and why, and what it started. */
export function AutomationHistory({ projectId, name, revision, onOpenWork }: AutomationHistoryProps) {
  const bridge = useBridge();
  const agentsById = useWorkState(projectId, 'agentsById');
  const tasksById = useWorkState(projectId, 'tasksById');
  const [runs, setRuns] = useState<{ list: AutomationRun[] | null; error: string | null }>({ list: null, error: null });

  useEffect(() => {
    let current = true;
    bridge.call('getAutomationHistory', { projectId, name, limit: 50 }).then(
      (list) => current && setRuns({ list, error: null }),
      (failure: unknown) => current && setRuns((previous) => ({ ...previous, error: errorMessage(failure) })),
    );
    return () => {
      current = false;
    };
  }, [bridge, projectId, name, revision]);

  // A task opens its output, an agent its pane; what is gone from the project stays plain text.
  const started = (run: AutomationRun): ReactNode => {
    const task = run.taskId === null ? undefined : tasksById[run.taskId];
    if (task) {
      return (
        <button type="button" className="button button--row" onClick={() => onOpenWork({ kind: 'task', projectId, taskId: task.id, openOutput: true })}>
          Output of task {taskTitle(task)}
        </button>
      );
    }
    if (run.taskId) return `task ${run.taskId}`;
    const agent = run.agentId === null ? undefined : agentsById[run.agentId];
    if (agent) {
      return (
        <button type="button" className="button button--row" onClick={() => onOpenWork({ kind: 'agent', projectId, agentId: agent.id })}>
          Agent {agent.name}
        </button>
      );
    }
    return run.agentId ? `agent ${run.agentId}` : '—';
  };

  return (
    <div className="automations-dialog__history">
      <FormError message={runs.error && `Could not read the runs of ${name}: ${runs.error}`} />
      {runs.list?.length === 0 && <p className="field-hint">No runs yet.</p>}
      {runs.list && runs.list.length > 0 && (
        <table className="automations-dialog__runs">
          <caption>Runs of {name}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Set off by</th>
              <th scope="col">State</th>
              <th scope="col">Reason</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {runs.list.map((run) => (
              <tr key={run.id}>
                <td>{formatDateTime(run.startedAt)}</td>
                <td>{run.trigger}</td>
                <td>{run.state}</td>
                <td>{run.reason ?? '—'}</td>
                <td>{started(run)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
