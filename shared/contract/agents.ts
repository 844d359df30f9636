import { z } from 'zod';
import { AgentSchema, FormerAgentSchema } from '../entities/agents';
import { AgentIdSchema, ProfileIdSchema, ProjectIdSchema } from '../entities/ids';
import { AgentWorkspaceRequestSchema } from '../entities/worktrees';
import { NonEmpty } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const AGENT_METHODS = {
  /** With `workspace` new-worktree (or an existing branch or worktree) the agent works in its own git worktree. */
  createAgent: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        name: NonEmpty.max(60),
        role: z.string().max(4000).default(''),
        profileId: ProfileIdSchema,
        /** Default: the project folder. */
        workspace: AgentWorkspaceRequestSchema.optional(),
      })
      .strict(),
    result: AgentSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  updateAgent: {
    params: z
      .object({ agentId: AgentIdSchema, name: NonEmpty.max(60).optional(), role: z.string().max(4000).optional(), profileId: ProfileIdSchema.optional() })
      .strict(),
    result: AgentSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * Stops the agent's session if it runs, then forgets the agent. Its worktree folder goes; a branch
   * with work the parent lacks is kept (uncommitted changes committed onto it first) unless
   * `discardWork` says to delete it too.
   */
  removeAgent: {
    params: z
      .object({
        agentId: AgentIdSchema,
        discardWork: z.boolean().optional(),
        /** Archive: keep the branch even when it holds nothing its parent lacks. */
        keepBranch: z.boolean().optional(),
      })
      .strict(),
    result: z.object({
      agentId: AgentIdSchema,
      /** The branch kept with the agent's work, if any. */
      keptBranch: z.string().nullable(),
    }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * Deletes the branch kept when the agent was removed. Refused while the branch holds commits its
   * parent lacks, unless `force` (the person confirmed that work may go).
   */
  deleteKeptBranch: {
    params: z.object({ agentId: AgentIdSchema, force: z.boolean().default(false) }).strict(),
    result: FormerAgentSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** Holds (or releases) automatic wakes of an agent. */
  holdAgentWakes: {
    params: z.object({ agentId: AgentIdSchema, hold: z.boolean() }).strict(),
    result: z.object({ agentId: AgentIdSchema, held: z.boolean() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type AgentMethodName = keyof typeof AGENT_METHODS;
