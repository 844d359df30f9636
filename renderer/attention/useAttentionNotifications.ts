import { useEffect } from 'react';
import type { DroverState } from '../store/droverStore';
import { machineLabel, useMachineDirectory } from '../store/otherMachines';
import { useDroverActions, useDroverStoreApi } from '../store/StoreContext';
import { machineOfPage } from '../transport/machinePage';
import { systemNotifier } from '../transport/systemNotifications';
import { notificationText } from './attentionPresentation';
import { isItemInView } from './itemInView';
import { notificationSoundOn } from './notificationSound';
import { entryOf, goToEntry, type QueueEntry } from './queueAcrossMachines';

function notify(entry: QueueEntry, state: DroverState): void {
  const { item } = entry;
  if (state.settings.byId[item.projectId]?.notificationsMuted) return;
  const where = entry.here ? entry.projectName : `${entry.projectName} on ${machineLabel(entry.machine)}`;
  const { title, body } = notificationText(item, where, Date.now());
  systemNotifier().show({ id: `${entry.machine ?? ''}:${item.key}`, title, body, silent: !notificationSoundOn() }, () => goToEntry(entry));
}

/**
 * A system notification for each item a live transition raised (into needs input, a limit, a
 * crash, a failed task; never a turn's end, never a subagent's, which the host never reports as a
 * state), on this page's machine or any other it follows, unless its project is muted or the
 * person has it in view. Clicking it goes to the item.
 */
export function useAttentionNotifications(): void {
  const { onAttentionRaised } = useDroverActions();
  const store = useDroverStoreApi();
  const others = useMachineDirectory((state) => state.others);
  useEffect(
    () =>
      onAttentionRaised((item) => {
        const state = store.getState();
        if (!isItemInView(item, state.workStates)) notify(entryOf(item, machineOfPage(), true, state.projects.byId, state.actions), state);
      }),
    [onAttentionRaised, store],
  );
  useEffect(() => {
    const stops = others.map((other) =>
      other.store.getState().actions.onAttentionRaised((item) => {
        const state = other.store.getState();
        notify(entryOf(item, other.name, false, state.projects.byId, state.actions), state);
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [others]);
}
