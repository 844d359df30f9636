import { useEffect } from 'react';
import { useDroverActions, useDroverStoreApi } from '../store/StoreContext';
import { systemNotifier } from '../transport/systemNotifications';
import { notificationText } from './attentionPresentation';
import { goToItem } from './goToItem';
import { isItemInView } from './itemInView';
import { notificationSoundOn } from './notificationSound';

/**
 * A system notification for each item a live transition raised (into needs input, a limit, a
 * crash, a failed task; never a turn's end, never a subagent's, which the host never reports as a
 * state) unless its project is muted or the person has it in view. Clicking it goes to the item.
 */
export function useAttentionNotifications(): void {
  const { onAttentionRaised } = useDroverActions();
  const store = useDroverStoreApi();
  useEffect(
    () =>
      onAttentionRaised((item) => {
        const state = store.getState();
        if (state.settings.byId[item.projectId]?.notificationsMuted || isItemInView(item, state.workStates)) return;
        const { title, body } = notificationText(item, state.projects.byId[item.projectId]?.name ?? item.projectId, Date.now());
        systemNotifier().show({ id: item.key, title, body, silent: !notificationSoundOn() }, () => goToItem(item));
      }),
    [onAttentionRaised, store],
  );
}
