import type { InboxMethodName } from '../../../shared/contract/inbox';
import { speaksForSomeone, type Methods } from '../api';
import type { MediatedInbox } from './mediatedInbox';

/** Agents' inboxes: messages between agents and from people, and questions with their replies. */
export function inboxMethods(inbox: MediatedInbox): Methods<InboxMethodName> {
  return {
    listInbox: ({ agentId, ...request }) => inbox.list(agentId, request),
    markInboxRead: ({ agentId, messageIds }) => inbox.markRead(agentId, messageIds),
    markInboxSeen: ({ agentId, messageIds }) => inbox.markSeen(agentId, messageIds),
    sendMessage: ({ projectId, to, kind, body, fromAgentId }) => inbox.send({ projectId, to, kind, body, fromAgentId }),
    replyToMessage: ({ questionId, body, fromAgentId }) => inbox.reply({ questionId, body, fromAgentId }),
    // The wait ends with its client, and with its agent identity: a reply nobody received then stays pending, for a wake.
    awaitReply: ({ questionId, timeoutMs }, client) => inbox.awaitReply(questionId, timeoutMs, client.signal, () => speaksForSomeone(client.caller)),
  };
}
