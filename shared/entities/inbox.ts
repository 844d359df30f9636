import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema, TaskIdSchema, Timestamp } from './ids';

export const INBOX_KINDS = ['task-result', 'question', 'reply', 'note'] as const;
export const InboxKindSchema = z.enum(INBOX_KINDS);
export const INBOX_STATES = ['pending', 'delivered', 'read'] as const;

export const InboxMessageSchema = z.object({
  id: z.string(),
  projectId: ProjectIdSchema,
  /** The agent whose inbox holds the message. */
  agentId: AgentIdSchema,
  kind: InboxKindSchema,
  body: z.string(),
  taskId: TaskIdSchema.nullable(),
  fromAgentId: AgentIdSchema.nullable(),
  /** For a reply: the question it answers. */
  replyTo: z.string().nullable(),
  state: z.enum(INBOX_STATES),
  createdAt: Timestamp,
  deliveredAt: Timestamp.nullable(),
  readAt: Timestamp.nullable(),
  /** When a person first saw it in the agent's inbox; until then it is new to them. */
  seenAt: Timestamp.nullable(),
  seq: z.number().int().nonnegative(),
});
export type InboxMessage = z.infer<typeof InboxMessageSchema>;
