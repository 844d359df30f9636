import { useMemo } from 'react';
import type { Agent, InboxMessage } from '../../shared/entities';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import type { DroverState } from '../store/droverStore';
import { useDrover, useDroverActions } from '../store/StoreContext';
import { useNow } from '../workState/useNow';
import { inboxesByAgent, isUnread, senderName } from './inboxPresentation';
import { InboxMessageItem } from './InboxMessageItem';
import { NoteForm } from './NoteForm';
import { WakeControls } from './WakeControls';
import { FormError } from '../components/FormError';
import { countOf } from '../../shared/plural';

const NO_MESSAGES: Readonly<Record<string, InboxMessage>> = {};
const NO_AGENTS: Readonly<Record<string, Agent>> = {};
const EMPTY_INBOX: readonly InboxMessage[] = [];

/** One agent's inbox: its messages newest first, how they get delivered, and a note to send it. */
export function InboxDialog({ agent, onClose }: { agent: Agent; onClose(): void }) {
  const slice = (state: DroverState) => state.workStates[agent.projectId];
  const messagesById = useDrover((state) => slice(state)?.messagesById ?? NO_MESSAGES);
  const agentsById = useDrover((state) => slice(state)?.agentsById ?? NO_AGENTS);
  const session = useDrover((state) => slice(state)?.sessionsByAgentId[agent.id]);
  const wake = useDrover((state) => slice(state)?.wakesByAgentId[agent.id]);
  const { markInboxRead } = useDroverActions();
  const markRead = usePendingAction();
  const now = useNow(false);

  const inbox = useMemo(() => inboxesByAgent(Object.values(messagesById)).get(agent.id) ?? EMPTY_INBOX, [messagesById, agent.id]);
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
        {inbox.length === 0 ? 'No messages yet.' : `${countOf(inbox.length, 'message')}, ${unread} unread.`}
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
