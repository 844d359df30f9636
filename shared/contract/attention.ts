import { z } from 'zod';
import { AttentionKeySchema, HANDLED_AT_ONCE, HandledAttentionSchema } from '../attention';
import { ProjectIdSchema } from '../entities/ids';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const ATTENTION_METHODS = {
  /** The project's Needs you items the person handled (dismissed or opened) on any page. */
  getHandledAttention: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: HandledAttentionSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    // The Needs you queue is the person's.
    agents: 'refused',
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
    kind: 'changes',
    doors: EVERY_DOOR,
    // The Needs you queue is the person's.
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type AttentionMethodName = keyof typeof ATTENTION_METHODS;
