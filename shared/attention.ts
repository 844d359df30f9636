import { z } from 'zod';
import { ProjectIdSchema } from './entities/ids';

/** The most keys one updateHandledAttention takes; a page that dismisses more sends them in parts. */
export const HANDLED_AT_ONCE = 10_000;

/**
 * A Needs you item's key, `kind:projectId:id`: one occurrence of something that needs the person
 * (the queue itself is derived from the work state in each page).
 */
export const AttentionKeySchema = z
  .string()
  .max(300)
  .regex(/^[a-z-]+:p-[a-z0-9]{6,32}:\S+$/, 'a Needs you item is named kind:projectId:id');

/** The items of a project's Needs you queue that the person dismissed or opened, on any page. */
export const HandledAttentionSchema = z.object({
  projectId: ProjectIdSchema,
  /** The project's seq when the set last changed: a page keeps the newest it was told. */
  seq: z.number().int().nonnegative(),
  keys: z.array(AttentionKeySchema),
});
export type HandledAttention = z.infer<typeof HandledAttentionSchema>;
