import { z } from 'zod';
import { AttentionKeySchema, HANDLED_AT_ONCE, HandledAttentionSchema } from '../attention';
import { ProjectIdSchema } from '../entities';

export const ATTENTION_METHODS = {
  /** The project's Needs you items the person handled (dismissed or opened) on any page. */
  getHandledAttention: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: HandledAttentionSchema,
  },
  /**
   * The person handled these items (`handled`), and these ended (`ended`: the agent went on, the
   * task was retried or removed), so a new occurrence needs the person again. Every page is told
   * (`handledAttentionChanged`).
   */
  updateHandledAttention: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        handled: z.array(AttentionKeySchema).max(HANDLED_AT_ONCE).default([]),
        ended: z.array(AttentionKeySchema).max(HANDLED_AT_ONCE).default([]),
      })
      .strict(),
    result: HandledAttentionSchema,
  },
} as const;

export type AttentionMethodName = keyof typeof ATTENTION_METHODS;
