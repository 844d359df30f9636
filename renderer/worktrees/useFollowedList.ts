import { useEffect, useState } from 'react';
import type { DroverEvent } from '../../shared/events';
import { errorMessage } from '../format/errorMessage';
import { useConnection } from '../store/hooks';
import { useBridge } from '../store/StoreContext';

export interface FollowedList<T> {
  items: readonly T[];
  error: string | null;
}

/**
 * A list of an agent's that the host announces changes of (its checkpoints, its diff comments):
 * read when the view opens or the connection comes back, and read again on each such event.
 */
export function useFollowedList<T>(agentId: string, changed: (event: DroverEvent) => boolean, read: () => Promise<readonly T[]>): FollowedList<T> {
  const bridge = useBridge();
  const connection = useConnection();
  const [state, setState] = useState<FollowedList<T>>({ items: [], error: null });
  const [version, setVersion] = useState(0);

  useEffect(() => bridge.onEvent((event) => changed(event) && setVersion((current) => current + 1)), [bridge, changed]);

  useEffect(() => {
    if (connection !== 'open') return;
    let current = true;
    read().then(
      (items) => current && setState({ items, error: null }),
      (failure: unknown) => current && setState((previous) => ({ ...previous, error: errorMessage(failure) })),
    );
    return () => {
      current = false;
    };
  }, [read, connection, version, agentId]);

  return state;
}
