import { useCallback, useEffect, useState } from 'react';
import type { Automation } from '../../shared/automations';
import { errorMessage } from '../format/errorMessage';
import { useBridge } from '../store/StoreContext';

/**
 * The project's automations as the host last listed them. The host sends no event when a rule
 * runs or changes, so the list is read on open and again after each of the person's actions.
 */
export function useAutomations(projectId: string) {
  const bridge = useBridge();
  const [state, setState] = useState<{ list: Automation[] | null; error: string | null }>({ list: null, error: null });

  const refresh = useCallback(
    (isCurrent: () => boolean = () => true) =>
      bridge.call('listAutomations', { projectId }).then(
        (list) => isCurrent() && setState({ list, error: null }),
        (failure: unknown) => isCurrent() && setState((previous) => ({ ...previous, error: errorMessage(failure) })),
      ),
    [bridge, projectId],
  );

  useEffect(() => {
    let current = true;
    void refresh(() => current);
    return () => {
      current = false;
    };
  }, [refresh]);

  return { ...state, refresh: () => refresh() };
}
