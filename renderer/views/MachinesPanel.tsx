import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { Project } from '../../shared/entities/projects';
import { portFromText, remoteHostDir, type Machine } from '../../shared/machines';
import type { Route } from '../../shared/routes';
import { AttentionCountBadge } from '../attention/ProjectAttentionBadge';
import { useQueueAcrossMachines } from '../attention/queueAcrossMachines';
import { openMachinePage, opensMachineWindows, type ConnectionState } from '../bridge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { machineProblem, type DroverState } from '../store/droverStore';
import { reloadMachines, useMachineDirectory, useOtherMachines } from '../store/otherMachines';
import { useBridge } from '../store/StoreContext';
import { machinePageHref } from '../transport/machinePage';
import { OlderMachineHost, useOlderMachineHost } from './OlderMachineHost';

function connectionChanged(state: DroverState, previous: DroverState): boolean {
  return state.projects !== previous.projects || state.connection !== previous.connection || state.connectionLoss !== previous.connectionLoss;
}

/**
 * Other machines, reached over the person's own ssh, each with its projects: each opens as its own
 * page, served through this one.
 */
export function MachinesPanel() {
  const { machines, loadError } = useMachineDirectory();
  const followed = useOtherMachines(connectionChanged);
  const { entries } = useQueueAcrossMachines();
  const headingId = useId();
  const waiting = useMemo(() => {
    const counts = new Map<string, number>();
    for (const entry of entries) {
      const key = `${entry.machine ?? ''}:${entry.item.projectId}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }, [entries]);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="panel__title">
        Other machines <span className="count-badge">{machines?.length ?? 0}</span>
      </h2>
      <AddMachineForm onAdded={reloadMachines} />
      {loadError && <p className="empty-state empty-state--error">Could not list machines: {loadError}</p>}
      {machines && machines.length === 0 && <p className="empty-state">No other machines. Add one by its SSH destination to run agents there.</p>}
      {machines?.map((machine) => {
        const state = followed.find(({ other }) => other.name === machine.name)?.state ?? null;
        return <MachineGroup key={machine.name} machine={machine} state={state} waiting={waiting} />;
      })}
    </section>
  );
}

interface MachineGroupProps {
  machine: Machine;
  /** The state of the store following the machine; null until followed, and in the desktop window, which follows none. */
  state: DroverState | null;
  /** Needs you counts by `machine:projectId`. */
  waiting: ReadonlyMap<string, number>;
}

const CONNECTION_WORDS: Readonly<Record<ConnectionState, string>> = {
  connecting: 'connecting…',
  open: 'connected',
  lost: 'unreachable — reconnecting',
};

/** One machine: how to reach it, whether it is reached now, and its projects. */
function MachineGroup({ machine, state, waiting }: MachineGroupProps) {
  const bridge = useBridge();
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const nameId = useId();
  const projects = useMemo(() => Object.values(state?.projects.byId ?? {}).sort((a, b) => a.name.localeCompare(b.name)), [state?.projects.byId]);
  const older = useOlderMachineHost(machine.name, state);
  return (
    <section className="machine-group" aria-labelledby={nameId}>
      <div className="machine-group__head">
        <h3 id={nameId} className="machine-group__name">
          <MachineLink machine={machine.name}>{machine.name}</MachineLink>
        </h3>
        {state && (
          <span className="machine-group__connection" data-connection={older ? 'lost' : state.connection} title={machineProblem(state) ?? undefined}>
            {older ? 'another Drover' : state.connectionLoss?.kind === 'refused' ? 'not connected' : CONNECTION_WORDS[state.connection]}
          </span>
        )}
        <span className="project-row__path machine-group__where">
          {machine.port ? `${machine.destination}:${machine.port}` : machine.destination} · Drover {machine.hostVersion} · Node {machine.remoteNode}
        </span>
        <button type="button" className="button button--ghost button--ghost-danger" aria-describedby={nameId} onClick={() => setConfirmingRemoval(true)}>
          Remove
        </button>
      </div>
      {confirmingRemoval && (
        <ConfirmDialog
          title={`Remove ${machine.name} from Drover?`}
          confirmLabel="Remove machine"
          onConfirm={async () => {
            await bridge.call('removeMachine', { name: machine.name });
            reloadMachines();
          }}
          onClose={() => setConfirmingRemoval(false)}
        >
          <p>Drover stops following {machine.name}: its projects and its items leave this window.</p>
          <p>
            Nothing on {machine.name} stops: its Drover host goes on with its agents and tasks. Add the machine again to see them,
            or stop them first with{' '}
            <code className="inline-path">
              ssh {machine.port ? `-p ${machine.port} ` : ''}
              {machine.destination} node {remoteHostDir(machine.hostVersion)}/cli.js host stop
            </code>
            .
          </p>
        </ConfirmDialog>
      )}
      {older ? (
        <OlderMachineHost machine={machine.name} older={older} />
      ) : (
        state && machineProblem(state) && <p className="empty-state empty-state--error">{machineProblem(state)}</p>
      )}
      {state?.projects.status === 'ready' && projects.length === 0 && <p className="empty-state">No projects on {machine.name} yet: open it to add one.</p>}
      {projects.length > 0 && (
        <ul className="project-list" aria-label={`Projects on ${machine.name}`}>
          {projects.map((project) => (
            <MachineProjectRow key={project.id} machine={machine.name} project={project} waiting={waiting.get(`${machine.name}:${project.id}`) ?? 0} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** A link to a machine's page; in the desktop app it opens (or brings forward) that machine's window. */
function MachineLink({ machine, route, className, children }: { machine: string; route?: Route; className?: string; children: ReactNode }) {
  return (
    <a
      className={className}
      href={machinePageHref(machine, route)}
      onClick={(event) => {
        if (!opensMachineWindows()) return;
        event.preventDefault();
        openMachinePage(machine, route);
      }}
    >
      {children}
    </a>
  );
}

function MachineProjectRow({ machine, project, waiting }: { machine: string; project: Project; waiting: number }) {
  return (
    <li className="project-row">
      <div className="project-row__main">
        <MachineLink className="project-row__link" machine={machine} route={{ page: 'project', projectId: project.id }}>
          {project.name}
        </MachineLink>
        <span className="project-row__path">{project.path}</span>
      </div>
      <AttentionCountBadge count={waiting} />
    </li>
  );
}

function AddMachineForm({ onAdded }: { onAdded(): void }) {
  const bridge = useBridge();
  const [name, setName] = useState('');
  const [destination, setDestination] = useState('');
  const [port, setPort] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const { pending, error, setError, run } = usePendingAction({ clearErrorOnStart: true });
  const ids = { name: useId(), destination: useId(), port: useId(), hint: useId(), error: useId() };

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (pending) return;
    setNotice(null);
    const portNumber = port.trim() ? portFromText(port) : undefined;
    if (!name.trim() || !destination.trim()) return setError('Give the machine a name and its SSH destination (user@host, or a Host alias of ~/.ssh/config).');
    if (portNumber === null) return setError('The port is a number from 1 to 65535 (empty: as your ssh config says).');
    await run(async () => {
      const { machine, installed } = await bridge.call('addMachine', { name: name.trim(), destination: destination.trim(), ...(portNumber ? { port: portNumber } : {}) });
      setName('');
      setDestination('');
      setPort('');
      setNotice(`Added ${machine.name}: Drover ${machine.hostVersion} ${installed ? 'installed there' : 'was already there'}.`);
      onAdded();
    });
  }

  const describedBy = error ? `${ids.error} ${ids.hint}` : ids.hint;
  return (
    <form className="add-machine" onSubmit={(event) => void submit(event)} aria-busy={pending}>
      <div className="add-machine__fields">
        <label className="field-label" htmlFor={ids.name}>
          Machine name
        </label>
        <input id={ids.name} className="text-input" value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. box" autoComplete="off" spellCheck={false} aria-describedby={describedBy} />
        <label className="field-label" htmlFor={ids.destination}>
          SSH destination
        </label>
        <input id={ids.destination} className="text-input text-input--mono" value={destination} onChange={(event) => setDestination(event.target.value)} placeholder="e.g. you@box.example.com" autoComplete="off" spellCheck={false} aria-describedby={describedBy} />
        <label className="field-label" htmlFor={ids.port}>
          Port
        </label>
        <input id={ids.port} className="text-input add-machine__port" value={port} onChange={(event) => setPort(event.target.value)} placeholder="default 22" inputMode="numeric" autoComplete="off" aria-describedby={describedBy} />
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Adding…' : 'Add machine'}
        </button>
      </div>
      <p id={ids.hint} className="field-hint">
        {pending
          ? `Connecting to ${destination.trim()} with your ssh, checking Node and git there, and installing Drover's host when missing…`
          : "Drover uses your own ssh (keys, agent, known_hosts) and installs its host there in ~/.local/share/drover. Connect once with ssh first if the host key is new."}
      </p>
      <FormError message={error} id={ids.error} />
      {notice && (
        <p role="status" className="add-project__notice">
          {notice}
        </p>
      )}
    </form>
  );
}
