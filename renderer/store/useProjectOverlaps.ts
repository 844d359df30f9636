import { useEffect, useState } from 'react';
import type { ProjectOverlaps } from '../../shared/overlaps';
import { useConnection } from './hooks';
import { useBridge } from './StoreContext';

/**
 * The overlap radar's view of the project: read when the view opens or the connection comes back,
 * then replaced by each `projectOverlapsChanged` the host announces (the newest wins).
 */
export function useProjectOverlaps(projectId: string): ProjectOverlaps | null {
  const bridge = useBridge();
  const connection = useConnection();
  const [held, setHeld] = useState<{ overlaps: ProjectOverlaps; seq: number } | null>(null);

  useEffect(
    () =>
      bridge.onEvent((event) => {
        if (event.name !== 'projectOverlapsChanged' || event.projectId !== projectId) return;
        const { name: _name, seq, ...overlaps } = event;
        setHeld((current) => (current && current.overlaps.projectId === projectId && current.seq > seq ? current : { overlaps, seq }));
      }),
    [bridge, projectId],
  );

  useEffect(() => {
    if (connection !== 'open') return;
    let current = true;
    // A snapshot replaces whatever was held: a restarted host may count from lower.
    bridge.call('listOverlaps', { projectId }).then(
      (overlaps) => current && setHeld({ overlaps, seq: -1 }),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [bridge, connection, projectId]);

  return held?.overlaps.projectId === projectId ? held.overlaps : null;
}
