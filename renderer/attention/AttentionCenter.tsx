import { useCallback, useMemo, useRef, useState } from 'react';
import { countOf } from '../../shared/plural';
import { useAccountPauses } from '../accounts/pausedAccounts';
import { usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { useAppShortcut } from '../components/useAppShortcut';
import { nextItem } from '../store/attention';
import { useDroverActions } from '../store/StoreContext';
import { itemHeadline } from './attentionPresentation';
import { AttentionPanel } from './AttentionPanel';
import { entryPlace, goToEntry, useQueueAcrossMachines, type QueueEntry } from './queueAcrossMachines';
import { useAttentionNotifications } from './useAttentionNotifications';
import { useBadgeCount } from './useBadgeCount';

const NEXT_SHORTCUT = ['Ctrl', 'Alt', 'N'];

/**
 * The Needs you queue in the title bar, across every machine the page follows: its count, its
 * panel, the key that goes to the next item, the notifications it raises and the taskbar badge.
 */
export function AttentionCenter() {
  const { entries: queue, acrossMachines } = useQueueAcrossMachines();
  const { paused } = useAccountPauses();
  const { resumeAccount } = useDroverActions();
  const [open, setOpen] = useState(false);
  // A paused account stays in the count until resumed: it is the person's to end, not Drover's.
  const count = queue.length + paused.length;
  const lastJump = useRef<{ key: string; index: number } | null>(null);
  useAttentionNotifications();
  useBadgeCount(queue.length);

  const goNext = useCallback(() => {
    const next = nextItem(queue.map((entry) => entry.item), lastJump.current);
    const entry = next && queue[next.index];
    if (!next || !entry) return;
    lastJump.current = { key: next.item.key, index: next.index };
    goToEntry(entry);
  }, [queue]);
  useAppShortcut('nextAttention', goNext);

  const goToFromPanel = (entry: QueueEntry) => {
    lastJump.current = { key: entry.item.key, index: queue.indexOf(entry) };
    setOpen(false);
    goToEntry(entry);
  };

  const commands = useMemo<PaletteCommand[]>(
    () => [
      { id: 'attention:next', group: 'Needs you', label: 'Go to the next thing that needs you', shortcut: NEXT_SHORTCUT, run: goNext },
      { id: 'attention:open', group: 'Needs you', label: 'Open the Needs you queue', keywords: ['attention', 'inbox', 'notifications'], run: () => setOpen(true) },
      ...paused.map((account) => ({
        id: `account:${account.key}:resume`,
        group: 'Needs you',
        label: `Resume ${account.label} (paused: Drover wakes none of its agents)`,
        keywords: ['pause', 'account', 'limit', 'wake'],
        run: () => resumeAccount(account.key),
      })),
      ...queue.map((entry) => {
        const { status, subject } = itemHeadline(entry.item);
        return {
          id: `attention:${entry.machine ?? ''}:${entry.item.key}`,
          group: 'Needs you',
          label: `Go to ${subject} (${status.label.toLowerCase()}, ${entryPlace(entry, acrossMachines)})`,
          run: () => goToEntry(entry),
        };
      }),
    ],
    [goNext, queue, acrossMachines, paused, resumeAccount],
  );
  usePaletteCommands(commands);

  return (
    <>
      <button
        type="button"
        className="attention-button"
        data-active={count > 0 || undefined}
        aria-label={`Needs you ${countOf(count, 'item')}`}
        aria-haspopup="dialog"
        title="Needs you (Ctrl+Alt+N goes to the next item)"
        onClick={() => setOpen(true)}
      >
        <span className="attention-button__label">Needs you</span>{' '}
        <span className="attention-button__count">{count}</span>
      </button>
      {open && <AttentionPanel queue={queue} acrossMachines={acrossMachines} paused={paused} onGoTo={goToFromPanel} onClose={() => setOpen(false)} />}
    </>
  );
}
