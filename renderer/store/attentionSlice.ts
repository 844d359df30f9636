import { HANDLED_AT_ONCE, type HandledAttention } from '../../shared/attention';
import { projectOfKey } from './attention';
import type { Slice, SliceContext, StateCell } from './slice';

export interface AttentionState {
  /** Keys of queue items the person dismissed or opened, on this page or any other (the host keeps them). */
  handled: ReadonlySet<string>;
}

export interface AttentionActions {
  /** The person dealt with these items (dismissed them, opened the task): they leave the queue on every page. */
  markHandled(keys: readonly string[]): void;
}

interface AttentionSliceApi extends Slice<AttentionState, AttentionActions> {
  /** Starts following the project's handled items; idempotent. */
  track(projectId: string): void;
  forget(projectId: string): void;
  /** Tells the host that the handled keys outside `kept` (`keptHandledKeys`) ended. */
  keep(kept: ReadonlySet<string>): void;
}

/** Keys by the project they belong to, in parts the host takes at once. */
function partsByProject(keys: Iterable<string>): [string, string[]][] {
  const byProject = new Map<string, string[]>();
  for (const key of keys) {
    const projectId = projectOfKey(key);
    const projectKeys = byProject.get(projectId);
    if (projectKeys) projectKeys.push(key);
    else byProject.set(projectId, [key]);
  }
  const parts: [string, string[]][] = [];
  for (const [projectId, projectKeys] of byProject) {
    for (let start = 0; start < projectKeys.length; start += HANDLED_AT_ONCE) parts.push([projectId, projectKeys.slice(start, start + HANDLED_AT_ONCE)]);
  }
  return parts;
}

/**
 * What the person handled in the Needs you queue, kept by the host per project so every page hides
 * the same items. The queue itself is derived from the work state; this follows each project's
 * handled keys (its snapshot, then `handledAttentionChanged`), shows a change made here at once
 * while the host takes it, and tells the host which handled items ended (`keep`).
 */
export function createAttentionSlice(cell: StateCell<AttentionState>, { bridge, isOpen }: SliceContext): AttentionSliceApi {
  const tracked = new Set<string>();
  const hosted = new Map<string, HandledAttention>();
  /** Sent to the host and not answered yet. */
  const handling = new Set<string>();
  const ending = new Set<string>();

  function show(): void {
    const handled = new Set<string>();
    for (const { keys } of hosted.values()) for (const key of keys) if (!ending.has(key)) handled.add(key);
    for (const key of handling) if (!ending.has(key)) handled.add(key);
    const current = cell.get().handled;
    if (handled.size === current.size && [...handled].every((key) => current.has(key))) return;
    cell.set(() => ({ handled }));
  }

  /** A changed set, unless a newer one came first. */
  function apply(set: HandledAttention): void {
    const known = hosted.get(set.projectId);
    if (known && known.seq >= set.seq) return;
    replace(set);
  }

  function replace(set: HandledAttention): void {
    if (!tracked.has(set.projectId)) return;
    hosted.set(set.projectId, set);
    show();
  }

  function load(projectId: string): void {
    // The snapshot replaces what was known whatever its seq: a restarted host may count from lower.
    // One that could not be read stays as it was: the queue shows those items until the next connection.
    bridge.call('getHandledAttention', { projectId }).then(replace, () => {});
  }

  /** Sends the change; the keys show as changed meanwhile, and as the host has them after (or after a refusal). */
  function send(keys: Iterable<string>, change: 'handled' | 'ended'): void {
    const pending = change === 'handled' ? handling : ending;
    for (const [projectId, part] of partsByProject(keys)) {
      part.forEach((key) => pending.add(key));
      bridge
        .call('updateHandledAttention', { projectId, [change]: part })
        .then(apply, () => {})
        .finally(() => {
          part.forEach((key) => pending.delete(key));
          show();
        });
    }
    show();
  }

  return {
    initial: { handled: new Set() },
    actions: {
      markHandled(keys) {
        const current = cell.get().handled;
        const fresh = keys.filter((key) => !current.has(key));
        if (fresh.length > 0) send(fresh, 'handled');
      },
    },
    refetch(): void {
      tracked.forEach(load);
    },
    onEvent(event) {
      if (event.name === 'handledAttentionChanged') apply({ projectId: event.projectId, seq: event.seq, keys: event.keys });
    },
    track(projectId) {
      if (tracked.has(projectId)) return;
      tracked.add(projectId);
      if (isOpen()) load(projectId);
    },
    forget(projectId) {
      tracked.delete(projectId);
      hosted.delete(projectId);
      show();
    },
    keep(kept) {
      if (kept === cell.get().handled) return;
      const ended = [...cell.get().handled].filter((key) => !kept.has(key));
      if (ended.length > 0) send(ended, 'ended');
    },
  };
}
