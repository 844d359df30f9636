import { z } from 'zod';
import { AgentSchema } from '../entities/agents';
import { AgentIdSchema, ProfileIdSchema, ProjectIdSchema } from '../entities/ids';
import { InboxMessageSchema } from '../entities/inbox';
import { ForgeIssueSchema, ForgeLinkSchema, ForgeStatusSchema, MergeMethodSchema, PullRequestDraftSchema } from '../forge';
import { NonEmpty } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const FORGE_METHODS = {
  /** The project's forge: its repository and API (from origin, the settings, DROVER_GITHUB_API_URL), who Drover is there, the rate limit left. */
  getForgeStatus: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ForgeStatusSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /** Keeps a token the person pasted, for the project's forge API only (null forgets it); it is tried before it is kept. */
  setForgeToken: {
    params: z.object({ projectId: ProjectIdSchema, token: z.string().trim().min(1).max(1000).regex(/^[\x21-\x7e]+$/, 'a token is one word of printable characters').nullable() }).strict(),
    result: ForgeStatusSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /** A title and body for the agent's pull request, drafted from its commits (and its issue). */
  draftPullRequest: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: PullRequestDraftSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /** Pushes the agent's branch (that branch only), then opens its pull request against the parent branch. */
  createPullRequest: {
    params: z.object({ agentId: AgentIdSchema, title: NonEmpty.max(256), body: z.string().max(65_536).default(''), draft: z.boolean().default(false) }).strict(),
    result: ForgeLinkSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /** Reads the agent's pull request from the forge now. */
  refreshPullRequest: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: ForgeLinkSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /** Posts the pull request's failed checks (with what the forge says of them) or its unsent review comments to the agent's inbox. */
  sendForgeFeedback: {
    params: z.object({ agentId: AgentIdSchema, what: z.enum(['failed-checks', 'review-comments']) }).strict(),
    result: InboxMessageSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /** Merges the agent's pull request on the forge, the way the repository allows. */
  mergePullRequest: {
    params: z.object({ agentId: AgentIdSchema, method: MergeMethodSchema }).strict(),
    result: ForgeLinkSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /**
   * After its pull request merged: the agent goes with its worktree; its branch is deleted only when
   * the forge merged exactly what it holds, and kept otherwise (nothing unmerged is deleted).
   */
  archiveAgent: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, deletedBranch: z.string().nullable(), keptBranch: z.string().nullable() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** The project's open issues: a search, labels, or those assigned to the person the token belongs to. */
  listForgeIssues: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        search: z.string().trim().max(256).optional(),
        labels: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
        assignedToMe: z.boolean().optional(),
      })
      .strict(),
    result: z.object({ issues: z.array(ForgeIssueSchema), labels: z.array(z.string()) }),
    kind: 'reads',
    doors: EVERY_DOOR,
    // The forge holds the person's token and speaks for them there.
    agents: 'refused',
  },
  /** An agent in its own worktree, on a branch named for the issue; its first prompt is the issue, typed in once it is ready. */
  startAgentOnIssue: {
    params: z.object({ projectId: ProjectIdSchema, issueNumber: z.number().int().positive(), profileId: ProfileIdSchema, name: NonEmpty.max(60).optional() }).strict(),
    result: AgentSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type ForgeMethodName = keyof typeof FORGE_METHODS;
