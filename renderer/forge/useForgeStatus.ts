import { useCallback, useEffect, useState } from 'react';
import type { ForgeStatus } from '../../shared/forge';
import { errorMessage } from '../format/errorMessage';
import { useBridge } from '../store/StoreContext';

/** The project's forge status, read when asked (`reload`) and once at first. */
export function useForgeStatus(projectId: string) {
  const bridge = useBridge();
  const [state, setState] = useState<{ status: ForgeStatus | null; error: string | null }>({ status: null, error: null });
  const reload = useCallback(
    (isCurrent: () => boolean = () => true) =>
      bridge.call('getForgeStatus', { projectId }).then(
        (status) => isCurrent() && setState({ status, error: null }),
        (failure: unknown) => isCurrent() && setState((previous) => ({ ...previous, error: errorMessage(failure) })),
      ),
    [bridge, projectId],
  );
  useEffect(() => {
    let current = true;
    void reload(() => current);
    return () => {
      current = false;
    };
  }, [reload]);
  return { ...state, reload, setStatus: (status: ForgeStatus) => setState({ status, error: null }) };
}
