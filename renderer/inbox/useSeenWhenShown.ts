import { useEffect, useState } from 'react';
import { MARK_SEEN_AT_ONCE } from '../../shared/contract/inbox';
import type { InboxMessage } from '../../shared/entities/inbox';
import { usePendingAction } from '../components/usePendingAction';
import { isNew } from '../store/selectors';

/**
 * An open inbox marks what it shows as seen (the pane's count of new messages drops), and keeps
 * calling new the messages that were new when it showed them, until it closes.
 */
export function useSeenWhenShown(messages: readonly InboxMessage[], markSeen: (messageIds: string[]) => Promise<void>) {
  const newIds = messages.filter(isNew).map((message) => message.id);
  const [shownNew, setShownNew] = useState<ReadonlySet<string>>(() => new Set(newIds));
  const unmarked = newIds.filter((id) => !shownNew.has(id));
  // Kept as the render goes (React's way to follow props), so a message never shows without its mark.
  if (unmarked.length > 0) setShownNew(new Set([...shownNew, ...unmarked]));

  const marking = usePendingAction();
  const { run } = marking;
  const newKey = newIds.join(' ');
  useEffect(() => {
    if (newKey === '') return;
    const ids = newKey.split(' ');
    void run(async () => {
      for (let start = 0; start < ids.length; start += MARK_SEEN_AT_ONCE) await markSeen(ids.slice(start, start + MARK_SEEN_AT_ONCE));
    }, 'Could not mark the messages seen: ');
  }, [newKey, markSeen, run]);

  return { shownNew, error: marking.error };
}
