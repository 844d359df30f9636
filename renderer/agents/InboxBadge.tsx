import { countOf } from '../../shared/plural';

/** Messages for the agent new to the person (task results, questions, replies, notes not yet seen in its inbox). */
export function InboxBadge({ count }: { count: number }) {
  const name = `${countOf(count, 'new message')} in inbox`;
  return (
    <span role="img" aria-label={name} title={name} className={`pill pill--icon inbox-badge ${count > 0 ? 'inbox-badge--new' : ''}`}>
      <svg viewBox="0 0 16 16" width="11" height="11" aria-hidden="true" className="inbox-badge__icon">
        <path d="M2.5 9.5h3l1 1.5h3l1-1.5h3M2.5 9.5l1.7-5h7.6l1.7 5v3.5h-11z" />
      </svg>
      {count}
    </span>
  );
}

/** The badge is also the way into the agent's inbox. */
export function InboxButton({ count, onOpen }: { count: number; onOpen(): void }) {
  return (
    <button
      type="button"
      className="inbox-button"
      aria-label={`Inbox, ${countOf(count, 'new message')}`}
      aria-keyshortcuts="Control+Shift+M"
      title="Open inbox (Ctrl+Shift+M)"
      onClick={onOpen}
    >
      <InboxBadge count={count} />
    </button>
  );
}
