import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { Machine } from '../../shared/machines';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { errorMessage } from '../format/errorMessage';
import { useConnection } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { machinePageHref } from '../transport/machinePage';

function useMachines() {
  const bridge = useBridge();
  const [machines, setMachines] = useState<Machine[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const reload = useCallback(() => {
    bridge.call('listMachines', {}).then(
      (listed) => {
        setMachines(listed.machines);
        setLoadError(null);
      },
      (error: unknown) => setLoadError(errorMessage(error)),
    );
  }, [bridge]);
  // Listed once connected, and again after a reconnect (a call before then fails with nothing to show).
  const connection = useConnection();
  useEffect(() => {
    if (connection === 'open') reload();
  }, [connection, reload]);
  return { machines, loadError, reload };
}

/** Other machines, reached over the person's own ssh: each opens as its own page, served through this one. */
export function MachinesPanel() {
  const { machines, loadError, reload } = useMachines();
  const headingId = useId();
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="panel__title">
        Other machines <span className="count-badge">{machines?.length ?? 0}</span>
      </h2>
      <AddMachineForm onAdded={reload} />
      {loadError && <p className="empty-state empty-state--error">Could not list machines: {loadError}</p>}
      {machines && machines.length === 0 && <p className="empty-state">No other machines. Add one by its SSH destination to run agents there.</p>}
      {machines && machines.length > 0 && (
        <ul className="project-list">
          {machines.map((machine) => (
            <MachineRow key={machine.name} machine={machine} onRemoved={reload} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MachineRow({ machine, onRemoved }: { machine: Machine; onRemoved(): void }) {
  const bridge = useBridge();
  const { pending, error, run } = usePendingAction();
  const nameId = useId();
  return (
    <li className="project-row">
      <div className="project-row__main">
        <a id={nameId} className="project-row__link" href={machinePageHref(machine.name)}>
          {machine.name}
        </a>
        <span className="project-row__path">
          {machine.port ? `${machine.destination}:${machine.port}` : machine.destination} · Drover {machine.hostVersion} · Node {machine.remoteNode}
        </span>
        <FormError message={error} />
      </div>
      <div className="project-row__actions">
        <button type="button" className="button button--ghost" aria-describedby={nameId} disabled={pending} onClick={() => void run(async () => {
          await bridge.call('removeMachine', { name: machine.name });
          onRemoved();
        }, 'Could not remove the machine: ')}>
          Remove
        </button>
      </div>
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
    const portNumber = port.trim() ? Number(port.trim()) : undefined;
    if (!name.trim() || !destination.trim()) return setError('Give the machine a name and its SSH destination (user@host, or a Host alias of ~/.ssh/config).');
    if (portNumber !== undefined && !(Number.isInteger(portNumber) && portNumber >= 1 && portNumber <= 65_535)) return setError('The port is a number from 1 to 65535 (empty: as your ssh config says).');
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
        <input id={ids.name} className="text-input" value={name} onChange={(event) => setName(event.target.value)} placeholder="box" autoComplete="off" spellCheck={false} aria-describedby={describedBy} />
        <label className="field-label" htmlFor={ids.destination}>
          SSH destination
        </label>
        <input id={ids.destination} className="text-input text-input--mono" value={destination} onChange={(event) => setDestination(event.target.value)} placeholder="you@box.example.com" autoComplete="off" spellCheck={false} aria-describedby={describedBy} />
        <label className="field-label" htmlFor={ids.port}>
          Port
        </label>
        <input id={ids.port} className="text-input add-machine__port" value={port} onChange={(event) => setPort(event.target.value)} placeholder="22" inputMode="numeric" autoComplete="off" aria-describedby={describedBy} />
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
