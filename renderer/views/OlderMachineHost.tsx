import { useEffect, useRef, useState } from 'react';
import { PROTOCOL_VERSION } from '../../shared/host';
import type { MachineHost } from '../../shared/machines';
import { countOf } from '../../shared/plural';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { machineProblem, type DroverState } from '../store/droverStore';
import { reconnectMachine } from '../store/otherMachines';
import { useBridge } from '../store/StoreContext';

/** When to ask a machine which Drover its host is: the line this page follows it on could not connect. */
function reasonToAsk(state: DroverState | null): string | null {
  return state?.connection === 'lost' ? (machineProblem(state) ?? 'lost') : null;
}

export interface OlderHost {
  host: MachineHost;
  /** Its host was restarted into this version: follow the machine again now. */
  restarted(): void;
}

/**
 * The host of a machine when it is of a Drover this one cannot speak to (it outlived the Drover
 * that started it); null while the machine's line connects, or its host cannot be asked. `state`
 * is that of the store following the machine (null where nothing follows it).
 */
export function useOlderMachineHost(machine: string, state: DroverState | null): OlderHost | null {
  const bridge = useBridge();
  const [host, setHost] = useState<MachineHost | null>(null);
  const reason = reasonToAsk(state);
  // A page that cannot connect tries again and again with the same reason: one ssh login asks.
  const askedFor = useRef<string | null>(null);
  useEffect(() => {
    if (reason === null || reason === askedFor.current) return;
    askedFor.current = reason;
    bridge.call('getMachineHost', { name: machine }).then(
      (answer) => setHost(answer.host.running && answer.host.protocol !== PROTOCOL_VERSION ? answer.host : null),
      // Unreachable: the machine's connection already says why.
      () => setHost(null),
    );
  }, [bridge, machine, reason]);
  if (!host || state?.connection === 'open') return null;
  return {
    host,
    restarted: () => {
      setHost(null);
      askedFor.current = null;
      reconnectMachine(machine);
    },
  };
}

/** Which Drover the machine's host is, what it runs, and a restart into this version that names what it stops. */
export function OlderMachineHost({ machine, older }: { machine: string; older: OlderHost }) {
  const bridge = useBridge();
  const [confirming, setConfirming] = useState(false);
  const { agents, tasks } = older.host.work;
  const stops = `${countOf(agents.length, 'agent')} and ${countOf(tasks.length, 'task')}`;
  return (
    <div className="machine-group__older" role="group" aria-label={`The Drover host on ${machine}`}>
      <p className="empty-state">
        {machine} runs the host of Drover {older.host.version}, which this Drover cannot speak to.{' '}
        {agents.length + tasks.length === 0 ? 'Nothing runs there now: restart it into this version.' : `It goes on with its work (${stops}) until it is restarted into this version.`}
      </p>
      <button type="button" className="button" onClick={() => setConfirming(true)}>
        Restart its host…
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Restart the Drover host on ${machine}?`}
          confirmLabel="Restart the host"
          onConfirm={async () => {
            await bridge.call('restartMachineHost', { name: machine });
            older.restarted();
          }}
          onClose={() => setConfirming(false)}
        >
          <p>
            {agents.length + tasks.length === 0
              ? 'Nothing runs there now.'
              : `It stops ${stops} there: agents end their session, running tasks end interrupted (retry them later).`}
          </p>
          {agents.length + tasks.length > 0 && (
            <ul>
              {agents.map((agent) => (
                <li key={agent.agentId}>
                  agent {agent.name} ({agent.projectName})
                </li>
              ))}
              {tasks.map((task) => (
                <li key={task.taskId}>
                  task {task.name} ({task.projectName})
                </li>
              ))}
            </ul>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
