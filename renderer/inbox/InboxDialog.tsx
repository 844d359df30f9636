import type { Agent } from '../../shared/entities';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { useNow } from '../components/useNow';
import { usePendingAction } from '../components/usePendingAction';
import { useAgentInbox, useAgentSession, useAgentWake, useWorkState } from '../store/hooks';
import { isUnread } from '../store/selectors';
import { useDroverActions } from '../store/StoreContext';
import { inboxSummary, senderName } from './inboxPresentation';
import { InboxMessageItem } from './InboxMessageItem';
import { NoteForm } from './NoteForm';
import { WakeControls } from './WakeControls';

/** One agent's inbox: its messages newest first, how they get delivered, and a note to send it. */
export function InboxDialog({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const messagesById = useWorkState(agent.projectId, 'messagesById');
  const agentsById = useWorkState(agent.projectId, 'agentsById');
  const session = useAgentSession(agent);
  const wake = useAgentWake(agent);
  const inbox = useAgentInbox(agent);
  const { markInboxRead } = useDroverActions();
  const markRead = usePendingAction();
  const now = useNow(false);

  const unread = inbox.filter(isUnread).length;
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
        {inboxSummary(inbox)}
      </p>
      <FormError message={markRead.error} />
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
              now={now}
            />
          ))}
        </ol>
      )}
    </ModalDialog>
  );
}
