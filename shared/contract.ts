import { z } from 'zod';
import { AppSettingsSchema, AppSettingsSnapshotSchema, PausedAccountSchema } from './appSettings';
import { CommandLineToolInstallSchema } from './commandLineTool';
import { type HostMethodName, HostHelloParamsSchema, HostHelloSchema, HostStatusSchema, OpenWebDoorParamsSchema, RunningWorkSchema, WebDoorSchema } from './host';
import {
  AgentHookEventSchema,
  AgentIdSchema,
  AgentProfileInputSchema,
  AgentProfileSchema,
  AgentQuotaSchema,
  AgentSchema,
  AgentSessionSchema,
  AgentWorkspaceRequestSchema,
  BranchNameSchema,
  InboxKindSchema,
  InboxMessageSchema,
  ProfileIdSchema,
  ProjectIdSchema,
  ProjectListSchema,
  ProjectSchema,
  ProjectSettingsSchema,
  ProjectWorkStateSchema,
  StatusSchema,
  TaskIdSchema,
  TaskOutputSchema,
  TaskListSchema,
  FormerAgentSchema,
  TaskSchema,
  TaskStateSchema,
  TASK_STATES,
  WorkStateCursorSchema,
  MERGE_STRATEGIES,
  MergeCheckSchema,
  MergeResultSchema,
  ProjectGitSchema,
  WorktreeDiffSchema,
  WorktreeDiskUsageSchema,
  WorktreeSchema,
  WorktreeStatusSchema,
} from './entities';
import { ForgeIssueSchema, ForgeLinkSchema, ForgeStatusSchema, MergeMethodSchema, PullRequestDraftSchema } from './forge';
import {
  MAX_TURN_PROMPT_CHARS,
  AgentChangesSchema,
  AgentsDiffSchema,
  CheckpointUsageSchema,
  DIFF_SIDES,
  DiffCommentSchema,
  MAX_COMMENT_CHARS,
  MAX_QUOTED_CHARS,
  TurnDiffSchema,
  TurnSchema,
} from './turns';

/** The most of a task's log one readTaskOutput call returns (viewers read on from `nextOffset`). */
export const MAX_OUTPUT_READ_BYTES = 4 * 1024 * 1024;

const NonEmpty = z.string().trim().min(1);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text handed to a shell or the file system, at most `max` characters. A NUL would cut it short
 * and a lone surrogate cannot be stored as UTF-8, so what is stored would differ from what runs:
 * both are refused.
 */
function shellText(max: number) {
  return NonEmpty.max(max, `is longer than ${max} characters`)
    .refine((text) => !text.includes('\0'), 'contains a NUL character, which a command or path cannot hold')
    .refine((text) => !LONE_SURROGATE.test(text), 'is not valid Unicode text (it holds a lone surrogate)');
}

export const MAX_COMMAND_CHARS = 100_000;
export const MAX_LABEL_CHARS = 200;
export const MAX_PATH_CHARS = 4096;
const Command = shellText(MAX_COMMAND_CHARS);
const Label = shellText(MAX_LABEL_CHARS);
const FolderPath = shellText(MAX_PATH_CHARS);

const TerminalSize = z.object({ cols: z.number().int().min(2).max(1000), rows: z.number().int().min(1).max(500) });

/** Paged lists: at most `limit` items, and never more than a page's worth of bytes. */
const PageLimit = z.number().int().min(1).max(10_000);

/**
 * The request/response API every door exposes: one definition for both sides, so handlers and
 * callers cannot drift. Params are validated at every boundary with these schemas.
 */
export const METHODS = {
  /** The first call of a client: both sides say which protocol they speak (see shared/host.ts). */
  hostHello: {
    params: HostHelloParamsSchema,
    result: HostHelloSchema,
  },
  getHostStatus: {
    params: z.object({}).strict(),
    result: HostStatusSchema,
  },
  /**
   * Stops the host as a quit did before the host outlived its windows: agents stop, running tasks
   * end interrupted. Answers with what it stops, then closes every connection and exits.
   */
  stopHost: {
    params: z.object({}).strict(),
    result: z.object({ stopped: RunningWorkSchema }),
  },
  /** Opens the browser door for as long as the asking connection stays (one per `drover serve`). */
  openWebDoor: {
    params: OpenWebDoorParamsSchema,
    result: WebDoorSchema,
  },
  getStatus: {
    params: z.object({}).strict(),
    result: StatusSchema,
  },
  /**
   * Connection-scoped, once: this connection speaks for the agent whose running session `proof`
   * belongs to (its terminal's DROVER_AGENT_PROOF) and may from then on act only as that agent, in
   * its own project. Connections that never identify speak for the person.
   */
  identifyAgent: {
    params: z.object({ agentId: AgentIdSchema, proof: z.string().min(1).max(200) }).strict(),
    result: z.object({ agentId: AgentIdSchema, project: ProjectSchema }),
  },
  listProjects: {
    params: z.object({}).strict(),
    result: ProjectListSchema,
  },
  addProject: {
    params: z.object({ path: FolderPath }).strict(),
    result: ProjectSchema,
  },
  renameProject: {
    params: z.object({ projectId: ProjectIdSchema, name: NonEmpty.max(200) }).strict(),
    result: ProjectSchema,
  },
  removeProject: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: z.object({ projectId: ProjectIdSchema }),
  },
  /** Finds the registered project whose folder holds `path` (the deepest one). */
  findProjectByPath: {
    params: z.object({ path: FolderPath }).strict(),
    result: ProjectSchema,
  },
  getProjectSettings: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectSettingsSchema,
  },
  updateProjectSettings: {
    params: z.object({ projectId: ProjectIdSchema, settings: ProjectSettingsSchema.partial().strict() }).strict(),
    result: ProjectSettingsSchema,
  },
  /**
   * A snapshot of the project's work state, in parts of bounded size: the first part has `seq`,
   * the agents, sessions and wakes and the first tasks; while `next` is not null, ask again with
   * `after: next` for more tasks, then inbox messages. Later parts may hold versions newer than the
   * first part's `seq` (events carry them too); the snapshot's seq is the first part's.
   */
  getWorkState: {
    params: z.object({ projectId: ProjectIdSchema, after: WorkStateCursorSchema.optional() }).strict(),
    result: ProjectWorkStateSchema.extend({ next: WorkStateCursorSchema.nullable() }),
  },
  /**
   * A person's answer to a `data-missing` error: the project's state database is missing or empty,
   * and they choose to start the project with an empty work state (the other choice is to restore
   * the file from a backup and try again). A database that holds anything is never replaced.
   */
  startProjectEmpty: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectSchema,
  },
  createTask: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        command: Command,
        /** Defaults to the project root; must lie inside it. */
        cwd: FolderPath.optional(),
        ownerAgentId: NonEmpty.max(200).optional(),
        label: Label.optional(),
      })
      .strict(),
    result: TaskSchema,
  },
  /** Newest first, one page at a time: while `next` is not null, ask again with `after: next`. */
  listTasks: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        states: z.array(TaskStateSchema).max(TASK_STATES.length).optional(),
        after: TaskIdSchema.optional(),
        limit: PageLimit.optional(),
      })
      .strict(),
    result: z.object({ tasks: TaskListSchema, next: TaskIdSchema.nullable() }),
  },
  getTask: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: TaskSchema,
  },
  cancelTask: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: TaskSchema,
  },
  retryTask: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: TaskSchema,
  },
  readTaskOutput: {
    params: z
      .object({
        taskId: TaskIdSchema,
        /** Start at this byte offset; with neither offset nor tailBytes, reads from the start. */
        offset: z.number().int().nonnegative().optional(),
        /** Read the last N bytes (the viewer loads the tail of large logs first). */
        tailBytes: z.number().int().positive().optional(),
        maxBytes: z.number().int().positive().max(MAX_OUTPUT_READ_BYTES).optional(),
      })
      .strict(),
    result: TaskOutputSchema,
  },
  /** Connection-scoped: live output chunks of the task are pushed to this connection. */
  watchTaskOutput: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: z.object({ taskId: TaskIdSchema }),
  },
  unwatchTaskOutput: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: z.object({ taskId: TaskIdSchema }),
  },
  /**
   * Flow control: the client has taken in `bytes` more bytes of this task's pushed output. A client
   * far behind gets only the newest output once it catches up (the log keeps every byte).
   */
  ackTaskOutput: {
    params: z.object({ taskId: TaskIdSchema, bytes: z.number().int().positive() }).strict(),
    result: z.object({ taskId: TaskIdSchema }),
  },
  listAgentProfiles: {
    params: z.object({}).strict(),
    result: z.array(AgentProfileSchema),
  },
  /** Creates or replaces a custom profile; built-in profiles cannot be changed. */
  saveAgentProfile: {
    params: z.object({ profile: AgentProfileInputSchema.strict() }).strict(),
    result: AgentProfileSchema,
  },
  deleteAgentProfile: {
    params: z.object({ profileId: ProfileIdSchema }).strict(),
    result: z.object({ profileId: ProfileIdSchema }),
  },
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
  },
  updateAgent: {
    params: z
      .object({ agentId: AgentIdSchema, name: NonEmpty.max(60).optional(), role: z.string().max(4000).optional(), profileId: ProfileIdSchema.optional() })
      .strict(),
    result: AgentSchema,
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
  },
  /**
   * Deletes the branch kept when the agent was removed. Refused while the branch holds commits its
   * parent lacks, unless `force` (the person confirmed that work may go).
   */
  deleteKeptBranch: {
    params: z.object({ agentId: AgentIdSchema, force: z.boolean().default(false) }).strict(),
    result: FormerAgentSchema,
  },
  /** Starts a session; `resume` continues the agent CLI's own conversation where its id is known. */
  startAgent: {
    params: z.object({ agentId: AgentIdSchema, resume: z.boolean().default(false) }).strict(),
    result: AgentSessionSchema,
  },
  /** SIGTERM, then SIGKILL after a grace period. */
  stopAgent: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: AgentSessionSchema,
  },
  restartAgent: {
    params: z.object({ agentId: AgentIdSchema, resume: z.boolean().default(true) }).strict(),
    result: AgentSessionSchema,
  },
  writeAgentInput: {
    params: z.object({ agentId: AgentIdSchema, data: z.string().min(1).max(1_000_000) }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  resizeAgent: {
    params: z.object({ agentId: AgentIdSchema, ...TerminalSize.shape }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  /**
   * Connection-scoped: the agent's terminal stream is pushed to this connection. Answers with a
   * snapshot of the host's mirror of the terminal (its bounded scrollback and screen, serialized
   * for a terminal of `cols` x `rows`) and `at`, where in the stream it ends: the chunks pushed
   * afterwards start there. The PTY takes the size of the client that attached (or resized) last.
   */
  attachAgentTerminal: {
    params: z.object({ agentId: AgentIdSchema, ...TerminalSize.partial().shape }).strict(),
    result: z.object({ agentId: AgentIdSchema, snapshot: z.string(), at: z.number().int().nonnegative(), ...TerminalSize.shape }),
  },
  /** What the host's mirror of the agent's terminal holds, as text: scrollback, then the screen. */
  readAgentScreen: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, text: z.string(), ...TerminalSize.shape }),
  },
  detachAgentTerminal: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  /** Flow control: the client has written `bytes` more bytes of this agent's stream to its screen. */
  ackAgentOutput: {
    params: z.object({ agentId: AgentIdSchema, bytes: z.number().int().positive() }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  /**
   * From `drover hook CLI`, run by an agent CLI's own hooks inside an agent terminal: what the CLI
   * said of itself, already read out of its payload.
   */
  reportAgentHook: {
    params: z
      .object({
        agentId: AgentIdSchema,
        event: AgentHookEventSchema,
        /** The CLI's conversation id, once a prompt was submitted in it (so it can be resumed). */
        externalSessionId: z.string().max(200).optional(),
        /** stop-failed: the CLI's error kind (e.g. `rate_limit`, `server_error`). */
        error: z.string().max(100).optional(),
        /** stop-failed: what the CLI printed (a limit line names its reset time). */
        message: z.string().max(4000).optional(),
        /** quota: the plan quota the CLI reported. */
        quota: AgentQuotaSchema.optional(),
        /** prompt-submitted: what the person asked, where the CLI's hook says (kept with the turn). */
        prompt: z.string().max(MAX_TURN_PROMPT_CHARS).optional(),
      })
      .strict(),
    result: AgentSessionSchema,
  },
  /** Oldest first, one page at a time: while `next` is not null, ask again with `after: next`. */
  listInbox: {
    params: z
      .object({ agentId: AgentIdSchema, unreadOnly: z.boolean().default(false), after: z.string().min(1).max(100).optional(), limit: PageLimit.optional() })
      .strict(),
    result: z.object({ messages: z.array(InboxMessageSchema), next: z.string().nullable() }),
  },
  markInboxRead: {
    params: z.object({ agentId: AgentIdSchema, messageIds: z.array(z.string()).max(10_000).optional() }).strict(),
    result: z.array(InboxMessageSchema),
  },
  /** Posts a message to an agent of the project, by id or by name; it is delivered by a wake. */
  sendMessage: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        to: NonEmpty.max(200),
        kind: InboxKindSchema.exclude(['task-result', 'reply']).default('note'),
        body: NonEmpty.max(100_000),
        fromAgentId: AgentIdSchema.optional(),
      })
      .strict(),
    result: InboxMessageSchema,
  },
  /** Answers a question; the asker's ask_agent call returns it. */
  replyToMessage: {
    params: z.object({ questionId: z.string().min(1), body: NonEmpty.max(100_000), fromAgentId: AgentIdSchema.optional() }).strict(),
    result: InboxMessageSchema,
  },
  /** Long-poll: resolves with the reply to a question, or null after the timeout. */
  awaitReply: {
    params: z.object({ questionId: z.string().min(1), timeoutMs: z.number().int().min(0).max(3_600_000) }).strict(),
    result: InboxMessageSchema.nullable(),
  },
  /** Delivers the agent's pending messages now if its session is ready (a person's "wake"). */
  wakeAgent: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, delivered: z.number().int().nonnegative() }),
  },
  /** Holds (or releases) automatic wakes of an agent. */
  holdAgentWakes: {
    params: z.object({ agentId: AgentIdSchema, hold: z.boolean() }).strict(),
    result: z.object({ agentId: AgentIdSchema, held: z.boolean() }),
  },
  /**
   * Pauses the account the agent's CLI spends (its usage limits): Drover wakes no agent of it, in
   * any project, until `resumeAccount`; a person's own wake still delivers.
   */
  pauseAgentAccount: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ account: PausedAccountSchema }),
  },
  resumeAccount: {
    params: z.object({ key: z.string().min(1).max(1_000) }).strict(),
    result: z.object({ key: z.string(), resumed: z.boolean() }),
  },
  getAppSettings: {
    params: z.object({}).strict(),
    result: AppSettingsSnapshotSchema,
  },
  updateAppSettings: {
    // Paused accounts change through pauseAgentAccount and resumeAccount only.
    params: z.object({ settings: AppSettingsSchema.omit({ pausedAccounts: true }).partial().strict() }).strict(),
    result: AppSettingsSnapshotSchema,
  },
  /**
   * "Install command line tool": writes a small `drover` launcher into ~/.local/bin that runs the
   * CLI with this Drover's own runtime (or reports the one the .deb put in /usr/bin).
   */
  installCommandLineTool: {
    params: z.object({}).strict(),
    result: CommandLineToolInstallSchema,
  },
  /** Whether the project's folder is a git repository Drover can make worktrees in, and its branches. */
  getProjectGit: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectGitSchema,
  },
  listWorktrees: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: z.array(z.object({ agentName: z.string(), worktree: WorktreeSchema, status: WorktreeStatusSchema.nullable() })),
  },
  getWorktreeStatus: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: WorktreeStatusSchema,
  },
  /** What the agent's branch changed against where it left its parent: commits, staged, unstaged and untracked files. */
  getWorktreeDiff: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: WorktreeDiffSchema,
  },
  /** Connection-scoped: while watched, changes to the worktree's files move its `changedAt` (debounced). */
  watchWorktree: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  unwatchWorktree: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  /** Checks a merge into the parent without touching any checkout (git merge-tree). */
  checkWorktreeMerge: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: MergeCheckSchema,
  },
  /** Rebase-then-fast-forward, or one squashed commit; refused on conflicts or uncommitted changes in the way. */
  mergeWorktree: {
    params: z
      .object({ agentId: AgentIdSchema, strategy: z.enum(MERGE_STRATEGIES).default('rebase'), message: z.string().trim().min(1).max(10_000).optional() })
      .strict(),
    result: MergeResultSchema,
  },
  /** Posts the merge's conflicts to the agent's inbox: rebase on the parent and resolve them. */
  handBackWorktreeConflicts: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: InboxMessageSchema,
  },
  pushWorktreeBranch: {
    params: z.object({ agentId: AgentIdSchema, remote: BranchNameSchema.optional() }).strict(),
    result: z.object({ agentId: AgentIdSchema, remote: z.string(), branch: z.string() }),
  },
  getWorktreeDiskUsage: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: WorktreeDiskUsageSchema,
  },
  /** The project's forge: its repository and API (from origin, the settings, DROVER_GITHUB_API_URL), who Drover is there, the rate limit left. */
  getForgeStatus: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ForgeStatusSchema,
  },
  /** Keeps a token the person pasted, for the project's forge API only (null forgets it); it is tried before it is kept. */
  setForgeToken: {
    params: z.object({ projectId: ProjectIdSchema, token: z.string().trim().min(1).max(1000).regex(/^[\x21-\x7e]+$/, 'a token is one word of printable characters').nullable() }).strict(),
    result: ForgeStatusSchema,
  },
  /** A title and body for the agent's pull request, drafted from its commits (and its issue). */
  draftPullRequest: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: PullRequestDraftSchema,
  },
  /** Pushes the agent's branch (that branch only), then opens its pull request against the parent branch. */
  createPullRequest: {
    params: z.object({ agentId: AgentIdSchema, title: NonEmpty.max(256), body: z.string().max(65_536).default(''), draft: z.boolean().default(false) }).strict(),
    result: ForgeLinkSchema,
  },
  /** Reads the agent's pull request from the forge now. */
  refreshPullRequest: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: ForgeLinkSchema,
  },
  /** Posts the pull request's failed checks (with what the forge says of them) or its unsent review comments to the agent's inbox. */
  sendForgeFeedback: {
    params: z.object({ agentId: AgentIdSchema, what: z.enum(['failed-checks', 'review-comments']) }).strict(),
    result: InboxMessageSchema,
  },
  /** Merges the agent's pull request on the forge, the way the repository allows. */
  mergePullRequest: {
    params: z.object({ agentId: AgentIdSchema, method: MergeMethodSchema }).strict(),
    result: ForgeLinkSchema,
  },
  /**
   * After its pull request merged: the agent goes with its worktree; its branch is deleted only when
   * the forge merged exactly what it holds, and kept otherwise (nothing unmerged is deleted).
   */
  archiveAgent: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, deletedBranch: z.string().nullable(), keptBranch: z.string().nullable() }),
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
  },
  /** An agent in its own worktree, on a branch named for the issue; its first prompt is the issue, typed in once it is ready. */
  startAgentOnIssue: {
    params: z.object({ projectId: ProjectIdSchema, issueNumber: z.number().int().positive(), profileId: ProfileIdSchema, name: NonEmpty.max(60).optional() }).strict(),
    result: AgentSchema,
  },
  /** The agent's checkpoints, oldest first (bounded by the project's checkpoint settings). */
  listTurns: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, turns: z.array(TurnSchema) }),
  },
  /**
   * The change of checkpoints `from` through `to` (one turn: from = to), or with `to` null from the
   * state before `from` to the worktree as it is now.
   */
  getTurnDiff: {
    params: z.object({ agentId: AgentIdSchema, from: z.number().int().nonnegative(), to: z.number().int().nonnegative().nullable().default(null) }).strict(),
    result: TurnDiffSchema,
  },
  /**
   * Puts the agent's worktree (files, index, HEAD) back as it was at checkpoint `n`; refused while
   * the agent is busy. The state before becomes a checkpoint first, so the restore can be undone.
   */
  restoreTurn: {
    params: z.object({ agentId: AgentIdSchema, n: z.number().int().nonnegative() }).strict(),
    result: z.object({ agentId: AgentIdSchema, restoredTo: z.number().int().nonnegative(), undo: TurnSchema, message: InboxMessageSchema }),
  },
  getCheckpointUsage: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: CheckpointUsageSchema,
  },
  /** The agent's diff comments: unsent ones, and the latest sent. */
  listDiffComments: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.array(DiffCommentSchema),
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
  },
  deleteDiffComment: {
    params: z.object({ agentId: AgentIdSchema, commentId: z.string().min(1).max(100) }).strict(),
    result: z.object({ commentId: z.string() }),
  },
  /** Posts the agent's unsent comments as one inbox message (it is woken with it) and marks them sent. */
  sendDiffComments: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ message: InboxMessageSchema, comments: z.array(DiffCommentSchema) }),
  },
  /** Which files each agent changed on its branch, committed or not (agents with their own worktrees). */
  compareAgents: {
    params: z.object({ agentIds: z.array(AgentIdSchema).min(2).max(8) }).strict(),
    result: z.array(AgentChangesSchema),
  },
  /** The difference between two agents' worktrees as they are now. */
  diffAgents: {
    params: z.object({ fromAgentId: AgentIdSchema, toAgentId: AgentIdSchema }).strict(),
    result: AgentsDiffSchema,
  },
} as const;

export type MethodName = keyof typeof METHODS;
export type MethodParams<M extends MethodName> = z.input<(typeof METHODS)[M]['params']>;
export type MethodResult<M extends MethodName> = z.infer<(typeof METHODS)[M]['result']>;

/** The methods the core answers; the host answers the rest itself (see shared/host.ts). */
export type CoreMethodName = Exclude<MethodName, HostMethodName>;

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(METHODS, name);
}
