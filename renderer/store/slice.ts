import type { DroverEvent } from '../../shared/events';
import type { ErrorCode } from '../../shared/protocol';
import type { Bridge } from '../bridge';

/** One top-level key of the store as the slice that owns it sees it: read it, update it. */
export interface StateCell<T> {
  get(): T;
  /** Nothing changes (and nobody is notified) when `update` returns what it was given. */
  set(update: (current: T) => T): void;
}

/** What every slice is built with. */
export interface SliceContext {
  bridge: Bridge;
  /** Snapshots load only while connected; each 'open' re-fetches them. */
  isOpen(): boolean;
}

/** A slice of the store: its initial state, its actions, and how it follows the host. */
export interface Slice<S, A> {
  initial: S;
  actions: A;
  /** Re-reads the slice's snapshot; runs each time the connection opens. */
  refetch(): void;
  /** Sees every event; applies those that belong to the slice. */
  onEvent?(event: DroverEvent): void;
}

export type LoadStatus = 'loading' | 'ready' | 'error';

/** The state of a snapshot-fed slice: whether its snapshot has landed, and why not. */
export interface Loadable {
  status: LoadStatus;
  error: string | null;
  /** The contract's code for `error`, when the host gave one (`data-missing` offers a way out). */
  errorCode?: ErrorCode | null;
}

/** A re-fetch keeps showing the data already held instead of flashing back to "loading". */
export function reloading<S extends Loadable>(slice: S): S {
  return { ...slice, status: slice.status === 'ready' ? 'ready' : 'loading', error: null, errorCode: null };
}

/** A failed fetch keeps the data held, and says why. */
export function loadFailed<S extends Loadable>(slice: S, error: string, errorCode: ErrorCode | null = null): S {
  return { ...slice, status: 'error', error, errorCode };
}
