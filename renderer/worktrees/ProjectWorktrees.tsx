import { useCallback, useEffect, useState } from 'react';
import type { WorktreeDiskUsage } from '../../shared/entities';
import { countOf } from '../../shared/plural';
import { formatBytes } from '../format/bytes';
import { errorMessage } from '../format/errorMessage';
import { useConnection, useWorkState } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { WorktreeSettingsDialog } from './WorktreeSettingsDialog';

export interface DiskUsageState {
  usage: WorktreeDiskUsage | null;
  error: string | null;
}

/**
 * The project page's word on its agents' worktrees: how many, and how much disk they take; it opens
 * the worktree settings (where they are made, the setup command).
 */
export function ProjectWorktrees({ projectId }: { projectId: string }) {
  const bridge = useBridge();
  const connection = useConnection();
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const count = Object.keys(worktrees).length;
  const [disk, setDisk] = useState<DiskUsageState>({ usage: null, error: null });
  const [open, setOpen] = useState(false);

  const measure = useCallback(
    (isCurrent: () => boolean = () => true) =>
      bridge.call('getWorktreeDiskUsage', { projectId }).then(
        (usage) => isCurrent() && setDisk({ usage, error: null }),
        (failure: unknown) => isCurrent() && setDisk((previous) => ({ ...previous, error: errorMessage(failure) })),
      ),
    [bridge, projectId],
  );
  useEffect(() => {
    if (connection !== 'open') return;
    let current = true;
    void measure(() => current);
    return () => {
      current = false;
    };
  }, [measure, connection, count]);

  const size = disk.usage ? ` · ${formatBytes(disk.usage.bytes)}` : '';
  return (
    <>
      <button
        type="button"
        className="button button--ghost"
        title={disk.error ? `Could not measure their disk use: ${disk.error}` : "Disk used by the agents' worktrees; worktree settings"}
        onClick={() => setOpen(true)}
      >
        Worktrees: {count}
        {size}
      </button>
      {open && <WorktreeSettingsDialog projectId={projectId} disk={disk} count={countOf(count, 'worktree')} onMeasure={() => void measure()} onClose={() => setOpen(false)} />}
    </>
  );
}
