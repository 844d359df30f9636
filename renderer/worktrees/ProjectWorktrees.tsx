import { useCallback, useEffect, useMemo, useState } from 'react';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary';
import { preloadable } from '../components/preloadable';
import { countOf } from '../../shared/plural';
import { usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { formatBytes } from '../format/bytes';
import { errorMessage } from '../format/errorMessage';
import { useConnection, useWorkState } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { MergeDialog } from './MergeDialog';
import { OpenChangedFileDialog } from './OpenChangedFileDialog';
import { useBranchCommands } from './useBranchCommands';
import type { DiskUsageState } from './WorktreeSettingsDialog';

const { Component: CompareAgentsDialog } = preloadable(
  () => import('./CompareAgentsDialog'),
  (module) => module.CompareAgentsDialog,
);
const { Component: WorktreeSettingsDialog } = preloadable(
  () => import('./WorktreeSettingsDialog'),
  (module) => module.WorktreeSettingsDialog,
);

/**
 * The project page's word on its agents' worktrees: how many, and how much disk they take; it opens
 * the worktree settings (where they are made, the setup command, checkpoints) and the comparison
 * of agents that each worked on a branch of their own, and offers the palette each branch's merge,
 * push and comments.
 */
export function ProjectWorktrees({ projectId }: { projectId: string }) {
  const bridge = useBridge();
  const connection = useConnection();
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const count = Object.keys(worktrees).length;
  const comparable = Object.values(worktrees).filter((worktree) => worktree.state === 'ready').length >= 2;
  const [disk, setDisk] = useState<DiskUsageState>({ usage: null, error: null });
  const [open, setOpen] = useState<'settings' | 'compare' | null>(null);
  const commands = useMemo<PaletteCommand[]>(
    () => (comparable ? [{ id: 'worktrees:compare', group: 'Project', label: 'Compare agents…', keywords: ['branches', 'take', 'best'], run: () => setOpen('compare') }] : []),
    [comparable],
  );
  usePaletteCommands(commands);
  const { merging, stopMerging, openingFilesOf, stopOpeningFiles } = useBranchCommands(projectId);

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
        onClick={() => setOpen('settings')}
      >
        Worktrees: {count}
        {size}
      </button>
      {comparable && (
        <button type="button" className="button button--ghost" title="Which files each agent changed, two side by side, and take the best" onClick={() => setOpen('compare')}>
          Compare agents
        </button>
      )}
      {open === 'settings' && (
        <LoadFailureBoundary what="Worktrees settings">
          <WorktreeSettingsDialog projectId={projectId} disk={disk} count={countOf(count, 'worktree')} onMeasure={() => void measure()} onClose={() => setOpen(null)} />
        </LoadFailureBoundary>
      )}
      {merging && <MergeDialog agent={merging.agent} worktree={merging.worktree} onClose={stopMerging} />}
      {openingFilesOf && <OpenChangedFileDialog agent={openingFilesOf.agent} worktree={openingFilesOf.worktree} onClose={stopOpeningFiles} />}
      {open === 'compare' && (
        <LoadFailureBoundary what="Compare agents">
          <CompareAgentsDialog projectId={projectId} onClose={() => setOpen(null)} />
        </LoadFailureBoundary>
      )}
    </>
  );
}
