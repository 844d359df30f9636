import type { InboxMessage } from '../shared/entities/inbox';

/** A complete, valid inbox message (a pending note to agent a-aaaaaa of project p-aaaaaa), with the fields a test cares about. */
export function makeMessage(overrides: Partial<InboxMessage> = {}): InboxMessage {
  return {
    id: 'm-aaaaaa',
    projectId: 'p-aaaaaa',
    agentId: 'a-aaaaaa',
    kind: 'note',
    body: 'hello',
    taskId: null,
    fromAgentId: null,
    replyTo: null,
    state: 'pending',
    createdAt: 1,
    deliveredAt: null,
    readAt: null,
    seenAt: null,
    seq: 1,
    ...overrides,
  };
}
