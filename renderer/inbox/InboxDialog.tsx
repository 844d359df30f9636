import { useCallback } from 'react';
import type { Agent } from '../../shared/entities/agents';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { useNow } from '../components/useNow';
import { usePendingAction } from '../components/usePendingAction';
import { useAgentInbox, useAgentSession, useAgentWake, useWorkState } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { inboxSummary, senderName } from './inboxPresentation';
import { InboxMessageItem } from './InboxMessageItem';
import { NoteForm } from './NoteForm';
import { useSeenWhenShown } from './useSeenWhenShown';
import { WakeControls } from './WakeControls';

/** One agent's inbox: its messages newest first, how they get delivered, and a note to send it. */
export function InboxDialog({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const messagesById = useWorkState(agent.projectId, 'messagesById');
  const agentsById = useWorkState(agent.projectId, 'agentsById');
  const session = useAgentSession(agent);
  const wake = useAgentWake(agent);
  const inbox = useAgentInbox(agent);
  const { markInboxRead, markInboxSeen } = useDroverActions();
  const markRead = usePendingAction();
  const now = useNow(false);
  const markSeen = useCallback((messageIds: string[]) => markInboxSeen(agent.id, messageIds), [markInboxSeen, agent.id]);
  const seen = useSeenWhenShown(inbox, markSeen);

  // Read by the agent (read_inbox, drover inbox), or marked so here.
  const unread = inbox.filter((message) => message.state !== 'read').length;
  const pending = inbox.filter((message) => message.state === 'pending').length;

  const markAllRead = (
    <button
      type="button"
      className="button button--ghost"
      disabled={markRead.pending || unread === 0}
      onClick={() => void markRead.run(() => markInboxRead(agent.id), 'Could not mark the messages read: ')}
    >
      Mark all read
    </button>
  );

  return (
    <ModalDialog title={`${agent.name} inbox`} headerExtras={markAllRead} className="inbox-dialog" onClose={onClose}>
      <p className="inbox-dialog__summary">
        {inboxSummary(inbox, seen.shownNew.size)}
      </p>
      <FormError message={markRead.error ?? seen.error} />
      <WakeControls agent={agent} session={session} wake={wake} pending={pending} />
      <NoteForm agent={agent} />
      {inbox.length === 0 ? (
        <p className="inbox-dialog__empty">Task results, questions, replies and notes for {agent.name} arrive here.</p>
      ) : (
        <ol className="inbox-list" aria-label="Messages">
          {inbox.map((message) => (
            <InboxMessageItem
              key={message.id}
              message={message}
              sender={senderName(message, agentsById)}
              question={message.replyTo ? messagesById[message.replyTo] : undefined}
              isNew={seen.shownNew.has(message.id)}
              now={now}
            />
          ))}
        </ol>
      )}
    </ModalDialog>
  );
}
