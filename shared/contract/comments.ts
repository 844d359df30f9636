import { z } from 'zod';
import { AgentIdSchema } from '../entities/ids';
import { InboxMessageSchema } from '../entities/inbox';
import { DIFF_SIDES, DiffCommentSchema, MAX_COMMENT_CHARS, MAX_QUOTED_CHARS } from '../turns';
import { NonEmpty } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const COMMENT_METHODS = {
  /** The agent's diff comments: unsent ones, and the latest sent. */
  listDiffComments: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.array(DiffCommentSchema),
    kind: 'reads',
    doors: EVERY_DOOR,
    // Restoring and comments are the person's review.
    agents: 'refused',
  },
  addDiffComment: {
    params: z
      .object({
        agentId: AgentIdSchema,
        path: z.string().min(1).max(4096),
        side: z.enum(DIFF_SIDES),
        startLine: z.number().int().positive(),
        endLine: z.number().int().positive(),
        quoted: z.string().max(MAX_QUOTED_CHARS),
        body: NonEmpty.max(MAX_COMMENT_CHARS),
      })
      .strict()
      .refine((comment) => comment.endLine >= comment.startLine, 'the last line comes before the first'),
    result: DiffCommentSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // Restoring and comments are the person's review.
    agents: 'refused',
  },
  deleteDiffComment: {
    params: z.object({ agentId: AgentIdSchema, commentId: z.string().min(1).max(100) }).strict(),
    result: z.object({ commentId: z.string() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Restoring and comments are the person's review.
    agents: 'refused',
  },
  /** Posts the agent's unsent comments as one inbox message (it is woken with it) and marks them sent. */
  sendDiffComments: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ message: InboxMessageSchema, comments: z.array(DiffCommentSchema) }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Restoring and comments are the person's review.
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type CommentMethodName = keyof typeof COMMENT_METHODS;
