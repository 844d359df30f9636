import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema } from '../entities/ids';
import { InboxKindSchema, InboxMessageSchema } from '../entities/inbox';
import { MAX_MESSAGE_CHARS } from '../messageBody';
import { NonEmpty, PageLimit } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

/** The most message ids one markInboxSeen takes; an inbox that shows more marks them in parts. */
export const MARK_SEEN_AT_ONCE = 10_000;

export const INBOX_METHODS = {
  /** Oldest first, one page at a time: while `next` is not null, ask again with `after: next`. */
  listInbox: {
    params: z
      .object({ agentId: AgentIdSchema, unreadOnly: z.boolean().default(false), after: z.string().min(1).max(100).optional(), limit: PageLimit.optional() })
      .strict(),
    result: z.object({ messages: z.array(InboxMessageSchema), next: z.string().nullable() }),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  markInboxRead: {
    params: z.object({ agentId: AgentIdSchema, messageIds: z.array(z.string()).max(10_000).optional() }).strict(),
    result: z.array(InboxMessageSchema),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /**
   * A person saw these messages in the agent's inbox: they are no longer new to them (the agent's
   * own read, and the wakes, are untouched). Returns the messages that were new.
   */
  markInboxSeen: {
    params: z.object({ agentId: AgentIdSchema, messageIds: z.array(z.string()).min(1).max(MARK_SEEN_AT_ONCE) }).strict(),
    result: z.array(InboxMessageSchema),
    kind: 'changes',
    doors: EVERY_DOOR,
    // What a person saw is theirs to say.
    agents: 'refused',
  },
  /** Posts a message to an agent of the project, by id or by name; it is delivered by a wake. */
  sendMessage: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        to: NonEmpty.max(200),
        kind: InboxKindSchema.exclude(['task-result', 'reply']).default('note'),
        body: NonEmpty.max(MAX_MESSAGE_CHARS),
        fromAgentId: AgentIdSchema.optional(),
      })
      .strict(),
    result: InboxMessageSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Answers a question; the asker's ask_agent call returns it. */
  replyToMessage: {
    params: z.object({ questionId: z.string().min(1), body: NonEmpty.max(MAX_MESSAGE_CHARS), fromAgentId: AgentIdSchema.optional() }).strict(),
    result: InboxMessageSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Long-poll: resolves with the reply to a question, or null after the timeout. */
  awaitReply: {
    params: z.object({ questionId: z.string().min(1), timeoutMs: z.number().int().min(0).max(3_600_000) }).strict(),
    result: InboxMessageSchema.nullable(),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
} as const satisfies MethodTable;

export type InboxMethodName = keyof typeof INBOX_METHODS;
