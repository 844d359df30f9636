import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { Machine } from '../../shared/machines';
import { createMachineBridge, opensMachineWindows, runsInDesktopApp, type Bridge, type ClosableBridge } from '../bridge';
import { errorMessage } from '../format/errorMessage';
import { machineOfPage } from '../transport/machinePage';
import { createDroverStore, type DroverState, type DroverStore } from './droverStore';

/** Another machine this page follows, over its own connection, with a store of its own. */
export interface OtherMachine {
  /** Its name; null for the machine whose `drover serve` serves this page. */
  name: string | null;
  bridge: ClosableBridge;
  store: DroverStore;
}

interface MachineDirectory {
  /** The machines added to the serving host, null until listed. */
  machines: Machine[] | null;
  loadError: string | null;
  /** Every machine but this page's own, in the order they were added (the serving one first). */
  others: readonly OtherMachine[];
}

export const useMachineDirectory = create<MachineDirectory>(() => ({ machines: null, loadError: null, others: [] }));

/** The word for a machine in a row or a title: its name, or "this machine" for the serving one. */
export function machineLabel(name: string | null): string {
  return name ?? 'this machine';
}

function follow(name: string | null): OtherMachine {
  const bridge = createMachineBridge(name);
  return { name, bridge, store: createDroverStore(bridge) };
}

/** Another machine this page follows, with its store's state when last read. */
export interface FollowedState {
  other: OtherMachine;
  state: DroverState;
}

function readStates(others: readonly OtherMachine[]): readonly FollowedState[] {
  return others.map((other) => ({ other, state: other.store.getState() }));
}

/**
 * The other machines this page follows with their states, read again whenever `matters` (a
 * function defined once, outside the component) says a change of one's state counts.
 */
export function useOtherMachines(matters: (state: DroverState, previous: DroverState) => boolean): readonly FollowedState[] {
  const others = useMachineDirectory((state) => state.others);
  const [followed, setFollowed] = useState(() => readStates(others));
  useEffect(() => {
    const read = () => setFollowed(readStates(others));
    read();
    const stops = others.map((other) => other.store.subscribe((state, previous) => matters(state, previous) && read()));
    return () => stops.forEach((stop) => stop());
  }, [others, matters]);
  return followed;
}

let listMachines: () => void = () => undefined;

/** Follows a machine on a new connection now, not at the end of its backoff (its host was just restarted). */
export function reconnectMachine(name: string): void {
  const { others } = useMachineDirectory.getState();
  const old = others.find((other) => other.name === name);
  if (!old) return;
  old.bridge.close();
  useMachineDirectory.setState({ others: others.map((other) => (other === old ? follow(name) : other)) });
}

/** Lists the machines again (after one was added or removed). */
export function reloadMachines(): void {
  listMachines();
}

/**
 * Follows every machine the person added (and, on another machine's page, the serving one), so
 * this page's Needs you queue, notifications, palette and projects list cover them all. The list
 * comes from the serving host, again after each reconnect. In the desktop app, this machine's
 * window follows them over preload lines through this machine's host; a machine's window follows none.
 */
export function followOtherMachines(pageBridge: Bridge): void {
  const pageMachine = machineOfPage();
  const follows = !runsInDesktopApp() || opensMachineWindows();
  const serving = pageMachine !== null && follows ? follow(null) : null;
  const servingBridge = serving?.bridge ?? pageBridge;

  function keep(machines: Machine[]): void {
    const wanted = [...(serving ? [null] : []), ...(follows ? machines.map((machine) => machine.name).filter((name) => name !== pageMachine) : [])];
    const current = useMachineDirectory.getState().others;
    const others = wanted.map((name) => current.find((other) => other.name === name) ?? (name === null && serving ? serving : follow(name)));
    for (const gone of current) if (!others.includes(gone)) gone.bridge.close();
    useMachineDirectory.setState({ machines, loadError: null, others });
  }

  listMachines = () => {
    servingBridge.call('listMachines', {}).then(
      ({ machines }) => keep(machines),
      (error: unknown) => useMachineDirectory.setState({ loadError: errorMessage(error) }),
    );
  };
  servingBridge.onConnectionChange((state) => {
    if (state === 'open') listMachines();
  });
  if (servingBridge.connectionState() === 'open') listMachines();
}
