import type { StateCell } from './slice';

/**
 * Each machine's handled keys are kept apart: its page and the pages that show its queue from
 * elsewhere prune the keys of projects they know, and another machine's projects are not theirs.
 */
function storageKey(machine: string | null): string {
  return machine ? `drover.attention.handled@${machine}` : 'drover.attention.handled';
}

function readStored(key: string): ReadonlySet<string> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(key) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === 'string') : []);
  } catch {
    return new Set();
  }
}

function store(key: string, handled: ReadonlySet<string>): void {
  try {
    window.localStorage.setItem(key, JSON.stringify([...handled]));
  } catch {
    // Storage can be disabled or full: what was handled stays handled for this page.
  }
}

export interface AttentionState {
  /** Keys of queue items the person dismissed or opened; kept in this browser across reloads. */
  handled: ReadonlySet<string>;
}

export interface AttentionActions {
  /** The person dealt with these items (dismissed them, opened the task): they leave the queue. */
  markHandled(keys: readonly string[]): void;
}

/**
 * What the person handled in the Needs you queue. The queue itself is derived from the work state;
 * this keeps only the keys, pruned (`keep`) once the occurrence they name has ended.
 */
export function createAttentionSlice(cell: StateCell<AttentionState>, machine: string | null) {
  const key = storageKey(machine);
  function set(handled: ReadonlySet<string>): void {
    if (handled === cell.get().handled) return;
    cell.set(() => ({ handled }));
    store(key, handled);
  }

  const actions: AttentionActions = {
    markHandled(keys) {
      const current = cell.get().handled;
      if (keys.every((key) => current.has(key))) return;
      set(new Set([...current, ...keys]));
    },
  };

  return {
    initial: (): AttentionState => ({ handled: readStored(key) }),
    actions,
    /** Replaces the handled keys with the pruned set (`keptHandledKeys`). */
    keep: set,
  };
}
