import { useCallback, useMemo, useRef, useState } from 'react';
import { countOf } from '../../shared/plural';
import { useAccountPauses } from '../accounts/pausedAccounts';
import { usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { useAppShortcut } from '../components/useAppShortcut';
import { nextItem, type AttentionItem } from '../store/attention';
import { useAttentionQueue, useProjects } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { itemHeadline } from './attentionPresentation';
import { AttentionPanel } from './AttentionPanel';
import { goToItem } from './goToItem';
import { useAttentionNotifications } from './useAttentionNotifications';
import { useBadgeCount } from './useBadgeCount';

const NEXT_SHORTCUT = ['Ctrl', 'Alt', 'N'];

/**
 * The Needs you queue in the title bar: its count, its panel, the key that goes to the next item,
 * the notifications it raises and the taskbar badge.
 */
export function AttentionCenter() {
  const queue = useAttentionQueue();
  const projects = useProjects().byId;
  const { paused } = useAccountPauses();
  const { resumeAccount } = useDroverActions();
  const [open, setOpen] = useState(false);
  // A paused account stays in the count until resumed: it is the person's to end, not Drover's.
  const count = queue.length + paused.length;
  const lastJump = useRef<{ key: string; index: number } | null>(null);
  useAttentionNotifications();
  useBadgeCount(queue.length);

  const goNext = useCallback(() => {
    const next = nextItem(queue, lastJump.current);
    if (!next) return;
    lastJump.current = { key: next.item.key, index: next.index };
    goToItem(next.item);
  }, [queue]);
  useAppShortcut('nextAttention', goNext);

  const goToFromPanel = (item: AttentionItem) => {
    lastJump.current = { key: item.key, index: queue.indexOf(item) };
    setOpen(false);
    goToItem(item);
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
      ...queue.map((item) => {
        const { status, subject } = itemHeadline(item);
        return {
          id: `attention:${item.key}`,
          group: 'Needs you',
          label: `Go to ${subject} (${status.label.toLowerCase()}, ${projects[item.projectId]?.name ?? item.projectId})`,
          run: () => goToItem(item),
        };
      }),
    ],
    [goNext, queue, projects, paused, resumeAccount],
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
      {open && <AttentionPanel queue={queue} paused={paused} onGoTo={goToFromPanel} onClose={() => setOpen(false)} />}
    </>
  );
}
