import { z } from 'zod';
import { AutomationNoticeSchema } from '../automations';
import { ForgeLinkSchema } from '../forge';
import { ConflictNoticeSchema } from '../overlaps';
import { AgentSchema, FormerAgentSchema } from './agents';
import { ProjectIdSchema } from './ids';
import { InboxMessageSchema } from './inbox';
import { MergeQueueEntrySchema } from './mergeQueue';
import { AgentSessionSchema } from './sessions';
import { TaskListSchema } from './tasks';
import { WakeSchema } from './wake';
import { WorktreeSchema } from './worktrees';

/** Where the next part of a work-state snapshot starts: after a task, or after an inbox message. */
export const WorkStateCursorSchema = z.string().regex(/^(tasks:(t-[a-z0-9]{6,32})?|messages:(m-[a-z0-9]{6,32})?)$/, 'not a work-state cursor');

export const ProjectWorkStateSchema = z.object({
  projectId: ProjectIdSchema,
  seq: z.number().int().nonnegative(),
  tasks: TaskListSchema,
  agents: z.array(AgentSchema),
  /** The latest session of each agent that has one. */
  sessions: z.array(AgentSessionSchema),
  messages: z.array(InboxMessageSchema),
  /** Wakes not yet delivered, and the latest of each agent. */
  wakes: z.array(WakeSchema),
  /** The agents' own worktrees. */
  worktrees: z.array(WorktreeSchema),
  /** What ties agents to the forge: their issue, their pull request. */
  forgeLinks: z.array(ForgeLinkSchema),
  /** Removed agents: their names (their tasks still name them) and kept branches. */
  formerAgents: z.array(FormerAgentSchema),
  /** The project's automations, as far as the Needs you queue reads them. */
  automations: z.array(AutomationNoticeSchema),
  /** Pairs of agents whose branches started to conflict, while the project's conflict alerts are on (kept in the host's memory). */
  conflictNotices: z.array(ConflictNoticeSchema),
  /** The agents' entries in the merge queues, in their places. */
  mergeQueue: z.array(MergeQueueEntrySchema),
});
export type ProjectWorkState = z.infer<typeof ProjectWorkStateSchema>;
