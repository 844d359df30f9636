import { z } from 'zod';
import { ForgeApiUrlSchema, ForgeLinkSchema, RepositoryNameSchema } from './forge';

/** Ids are opaque strings minted by the core; the prefix only helps people reading logs. */
const TASK_ID = /^t-[a-z0-9]{6,32}$/;
const PROJECT_ID = /^p-[a-z0-9]{6,32}$/;
export const ProjectIdSchema = z.string().regex(PROJECT_ID, 'not a project id');
export const TaskIdSchema = z.string().regex(TASK_ID, 'not a task id');
export const AgentIdSchema = z.string().regex(/^a-[a-z0-9]{6,32}$/, 'not an agent id');
export const ProfileIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a profile id is lowercase letters, digits and dashes');

/** Milliseconds since the Unix epoch. */
const Timestamp = z.number().int().nonnegative();

export const ProjectSchema = z.object({
  id: ProjectIdSchema,
  name: z.string(),
  path: z.string(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const TASK_STATES = [
  'queued',
  'running',
  'cancelling',
  'succeeded',
  'failed',
  'cancelled',
  'interrupted',
] as const;
export const TaskStateSchema = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof TaskStateSchema>;

export const FINISHED_TASK_STATES: readonly TaskState[] = ['succeeded', 'failed', 'cancelled', 'interrupted'];
export const ACTIVE_TASK_STATES: readonly TaskState[] = ['queued', 'running', 'cancelling'];

export function isTaskFinished(state: TaskState): boolean {
  return FINISHED_TASK_STATES.includes(state);
}

export const TaskSchema = z.object({
  id: TaskIdSchema,
  projectId: ProjectIdSchema,
  ownerAgentId: z.string().nullable(),
  label: z.string().nullable(),
  command: z.string(),
  cwd: z.string(),
  state: TaskStateSchema,
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  reason: z.string().nullable(),
  attempt: z.number().int().positive(),
  retryOf: TaskIdSchema.nullable(),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  endedAt: Timestamp.nullable(),
  pid: z.number().int().nullable(),
  pidStartTime: z.string().nullable(),
  logPath: z.string(),
  outputBytes: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
});
export type Task = z.infer<typeof TaskSchema>;

/** The most checkpoints kept per agent, whatever the setting (a turn list is one reply). */
export const MAX_CHECKPOINTS_KEPT = 1000;

const TASK_STATE_SET = new Set<unknown>(TASK_STATES);
const isString = (value: unknown): value is string => typeof value === 'string';
const isTaskId = (value: unknown): boolean => isString(value) && TASK_ID.test(value);
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isStringOrNull = (value: unknown): boolean => value === null || typeof value === 'string';
const isIntegerOrNull = (value: unknown): boolean => value === null || Number.isInteger(value);
const isCountOrNull = (value: unknown): boolean => value === null || isCount(value);

/** What is wrong with a task's field, in words, as the check below finds it. */
const TASK_PROBLEMS: Readonly<Record<keyof Task, string>> = {
  id: 'not a task id',
  projectId: 'not a project id',
  ownerAgentId: 'not a string or null',
  label: 'not a string or null',
  command: 'not a string',
  cwd: 'not a string',
  state: 'not a task state',
  exitCode: 'not a whole number or null',
  signal: 'not a string or null',
  reason: 'not a string or null',
  attempt: 'not a whole number ≥ 1',
  retryOf: 'not a task id or null',
  createdAt: 'not a whole number ≥ 0',
  startedAt: 'not a whole number ≥ 0 or null',
  endedAt: 'not a whole number ≥ 0 or null',
  pid: 'not a whole number or null',
  pidStartTime: 'not a string or null',
  logPath: 'not a string',
  outputBytes: 'not a whole number ≥ 0',
  seq: 'not a whole number ≥ 0',
};

/**
 * The first field of `task` that breaks TaskSchema's rule, or null. Field by field in plain code
 * (a test holds it to TaskSchema for every field): each read is of a named property, which stays
 * fast over 10,000 objects of one shape, where reading them by a key from a table did not.
 */
function badTaskField(task: Record<string, unknown>): keyof Task | null {
  if (!isTaskId(task.id)) return 'id';
  const projectId = task.projectId;
  if (!isString(projectId) || !PROJECT_ID.test(projectId)) return 'projectId';
  if (!isStringOrNull(task.ownerAgentId)) return 'ownerAgentId';
  if (!isStringOrNull(task.label)) return 'label';
  if (!isString(task.command)) return 'command';
  if (!isString(task.cwd)) return 'cwd';
  if (!TASK_STATE_SET.has(task.state)) return 'state';
  if (!isIntegerOrNull(task.exitCode)) return 'exitCode';
  if (!isStringOrNull(task.signal)) return 'signal';
  if (!isStringOrNull(task.reason)) return 'reason';
  if (!isCount(task.attempt) || task.attempt === 0) return 'attempt';
  if (task.retryOf !== null && !isTaskId(task.retryOf)) return 'retryOf';
  if (!isCount(task.createdAt)) return 'createdAt';
  if (!isCountOrNull(task.startedAt)) return 'startedAt';
  if (!isCountOrNull(task.endedAt)) return 'endedAt';
  if (!isIntegerOrNull(task.pid)) return 'pid';
  if (!isStringOrNull(task.pidStartTime)) return 'pidStartTime';
  if (!isString(task.logPath)) return 'logPath';
  if (!isCount(task.outputBytes)) return 'outputBytes';
  if (!isCount(task.seq)) return 'seq';
  return null;
}

/**
 * A list of tasks, as thousands come in one reply (a work-state snapshot, a page of listTasks):
 * checked against TaskSchema's rules by plain code rather than by zod, which in the page runs
 * without compiled validators (its CSP forbids eval) and took ~360 ms for 10,000 tasks. The first
 * bad field is named ("3.state: not a task state"); a test holds the two checks together.
 */
export const TaskListSchema = z
  .custom<Task[]>((value) => Array.isArray(value), 'not a list of tasks')
  .superRefine((tasks, context) => {
    for (let index = 0; index < tasks.length; index++) {
      const task = tasks[index] as unknown;
      if (typeof task !== 'object' || task === null || Array.isArray(task)) {
        context.addIssue({ code: 'custom', path: [index], message: 'not a task' });
        return;
      }
      const field = badTaskField(task as Record<string, unknown>);
      if (field !== null) {
        context.addIssue({ code: 'custom', path: [index, field], message: TASK_PROBLEMS[field] });
        return;
      }
    }
  });

export const ProjectSettingsSchema = z.object({
  taskConcurrency: z.number().int().min(1).max(64),
  taskOutputCapBytes: z.number().int().min(1024),
  cancelGraceMs: z.number().int().min(0).max(600_000),
  /** The person muted the project's notifications; what needs them still shows in the app. */
  notificationsMuted: z.boolean(),
  /** Where agents' worktrees are made (outside the repository); null: under the data dir. */
  worktreesDir: z.string().trim().min(1).max(4096).refine((dir) => dir.startsWith('/'), 'the worktrees folder must be an absolute path').nullable(),
  /** Run as a background task of the agent in each new worktree (e.g. `npm ci`); null: none. */
  worktreeSetupCommand: z.string().trim().min(1).max(10_000).nullable(),
  /** The repository on the forge (owner/name); null: what `origin` says. */
  forgeRepository: RepositoryNameSchema.nullable(),
  /** The forge's REST API; null: what `origin` says (DROVER_GITHUB_API_URL wins over both). */
  forgeApiUrl: ForgeApiUrlSchema.nullable(),
  /** Failed checks of an agent's pull request go to the agent without the person pressing Send. */
  autoSendFailedChecks: z.boolean(),
  /** New review comments go to the agent without the person pressing Send. */
  autoSendReviewComments: z.boolean(),
  /** Checkpoints of each agent's turns kept: the newest this many (see `checkpointDaysKept`). */
  checkpointTurnsKept: z.number().int().min(1).max(MAX_CHECKPOINTS_KEPT),
  /** Checkpoints older than this many days are pruned too; null: by count only. */
  checkpointDaysKept: z.number().int().min(1).max(3650).nullable(),
  /**
   * Agents' CLIs run every Drover tool without asking (run_in_background runs any shell command as
   * the person). Off: only the read-only tools; the CLI asks before the others. Read at each start.
   */
  preApproveDroverTools: z.boolean(),
  /**
   * The project's agents and tasks get the GitHub tokens of the host's environment (GH_TOKEN,
   * GITHUB_TOKEN and their Enterprise twins). Off: those stay in the host, which speaks to GitHub
   * for them. Read at each agent's and task's start.
   */
  shareGitHubToken: z.boolean(),
  /** Run in an agent's worktree before the merge queue lands its branch (e.g. `npm test`); '': none. */
  mergeCheckCommand: z.string().trim().max(10_000),
  /** The merge queue takes no next entry (the one under way finishes). */
  mergeQueuePaused: z.boolean(),
});
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  taskConcurrency: 2,
  taskOutputCapBytes: 50 * 1024 * 1024,
  cancelGraceMs: 5_000,
  notificationsMuted: false,
  worktreesDir: null,
  worktreeSetupCommand: null,
  forgeRepository: null,
  forgeApiUrl: null,
  autoSendFailedChecks: false,
  autoSendReviewComments: false,
  checkpointTurnsKept: 100,
  checkpointDaysKept: null,
  preApproveDroverTools: false,
  shareGitHubToken: false,
  mergeCheckCommand: '',
  mergeQueuePaused: false,
};

export const ProjectListSchema = z.object({
  seq: z.number().int().nonnegative(),
  projects: z.array(ProjectSchema),
});
export type ProjectList = z.infer<typeof ProjectListSchema>;

export const StatusSchema = z.object({
  version: z.string(),
  dataDir: z.string(),
  socketPath: z.string(),
  projects: z.array(ProjectSchema),
});
export type Status = z.infer<typeof StatusSchema>;

export const TaskOutputSchema = z.object({
  taskId: TaskIdSchema,
  /** Byte offset in the log where `data` starts. */
  offset: z.number().int().nonnegative(),
  /** Byte offset just past `data`; pass it back as `offset` to continue. */
  nextOffset: z.number().int().nonnegative(),
  /** Size of the whole log at the time of reading. */
  size: z.number().int().nonnegative(),
  data: z.string(),
});
export type TaskOutput = z.infer<typeof TaskOutputSchema>;

/**
 * Which agent CLI's own signals Drover uses beyond the screen: its hooks, the per-session settings
 * that register them and Drover's MCP server, its status reports. `none`: the screen only.
 */
export const AGENT_INTEGRATIONS = ['claude', 'codex', 'gemini', 'copilot', 'opencode', 'none'] as const;
export const AgentIntegrationSchema = z.enum(AGENT_INTEGRATIONS);
export type AgentIntegration = z.infer<typeof AgentIntegrationSchema>;

/**
 * How a wake is typed: as a prompt (agent CLIs), or as a shell note — a command that only shows
 * the text (`true '…'`), so a plain shell runs nothing.
 */
export const WAKE_STYLES = ['prompt', 'shell-note'] as const;
export const WakeStyleSchema = z.enum(WAKE_STYLES);
export type WakeStyle = z.infer<typeof WakeStyleSchema>;

const Pattern = z
  .string()
  .max(500)
  .refine((source) => {
    try {
      new RegExp(source, 'm');
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression')
  .nullable();

export const AgentProfileInputSchema = z.object({
  id: ProfileIdSchema,
  name: z.string().trim().min(1).max(100),
  command: z.string().trim().min(1).max(1000),
  args: z.array(z.string().max(1000)).max(100),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an environment variable name'), z.string().max(10_000)),
  /** Matches the screen when the agent waits for a prompt. */
  promptPattern: Pattern,
  /** Matches the screen while the agent works. */
  busyPattern: Pattern,
  /** Matches the screen when the agent asks the person something. */
  needsInputPattern: Pattern,
  /** Matches the screen when the account behind the profile hit its usage limit. */
  usageLimitPattern: Pattern,
  /** Output must be quiet this long before the screen is read. */
  quietMs: z.number().int().min(50).max(60_000),
  integration: AgentIntegrationSchema,
  wakeAs: WakeStyleSchema.default('prompt'),
});
export type AgentProfileInput = z.infer<typeof AgentProfileInputSchema>;

export const AgentProfileSchema = AgentProfileInputSchema.extend({
  builtIn: z.boolean(),
  /** Null when the command is on PATH; otherwise why a session cannot start. */
  unavailableReason: z.string().nullable(),
});
export type AgentProfile = z.infer<typeof AgentProfileSchema>;

export const AgentSchema = z.object({
  id: AgentIdSchema,
  projectId: ProjectIdSchema,
  name: z.string(),
  role: z.string(),
  profileId: ProfileIdSchema,
  /** A person held automatic wakes: pending messages wait until released or woken by hand. */
  wakesHeld: z.boolean(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Agent = z.infer<typeof AgentSchema>;

/**
 * An agent that was removed, as its tasks and kept branch still name it: its name, where its
 * worktree was (gone with it), and the branch kept with its work until attached or deleted.
 */
export const FormerAgentSchema = z.object({
  id: AgentIdSchema,
  projectId: ProjectIdSchema,
  name: z.string(),
  role: z.string(),
  profileId: ProfileIdSchema,
  worktreePath: z.string().nullable(),
  keptBranch: z.string().nullable(),
  parentBranch: z.string().nullable(),
  removedAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type FormerAgent = z.infer<typeof FormerAgentSchema>;

export const AGENT_SESSION_STATES = ['starting', 'busy', 'ready', 'limited', 'exited'] as const;
export const AgentSessionStateSchema = z.enum(AGENT_SESSION_STATES);
export type AgentSessionState = z.infer<typeof AgentSessionStateSchema>;

/** One window of an agent CLI's own plan quota (Claude's five-hour and weekly limits). */
export const QuotaWindowSchema = z.object({
  usedPercent: z.number().min(0).max(1000),
  resetsAt: Timestamp.nullable(),
});
export type QuotaWindow = z.infer<typeof QuotaWindowSchema>;

/** What the agent CLI says of its account's quota; null where it says nothing (API keys, other CLIs). */
export const AgentQuotaSchema = z.object({
  fiveHour: QuotaWindowSchema.nullable(),
  weekly: QuotaWindowSchema.nullable(),
});
export type AgentQuota = z.infer<typeof AgentQuotaSchema>;

/** The agent CLI's version, as it printed it (`--version`) when the session started. */
export const AgentCliVersionSchema = z.object({
  version: z.string(),
  /** Set when `version` is newer than the newest one Drover was tested with: that one. */
  newerThanTested: z.string().nullable(),
});
export type AgentCliVersion = z.infer<typeof AgentCliVersionSchema>;

/**
 * What an agent CLI's hooks report, in Drover's words: a session began, a prompt was submitted (a
 * turn starts), the turn ended, the turn failed (an API error or a rate limit), the CLI waits for
 * the person (a permission or question dialog), or its plan quota changed.
 */
export const AGENT_HOOK_EVENTS = ['session-start', 'prompt-submitted', 'stopped', 'stop-failed', 'needs-input', 'quota'] as const;
export const AgentHookEventSchema = z.enum(AGENT_HOOK_EVENTS);
export type AgentHookEvent = z.infer<typeof AgentHookEventSchema>;

export const AgentSessionSchema = z.object({
  id: z.string(),
  agentId: AgentIdSchema,
  projectId: ProjectIdSchema,
  profileId: ProfileIdSchema,
  state: AgentSessionStateSchema,
  /** The agent asked the person something (a Notification hook or the needs-input pattern). */
  needsInput: z.boolean(),
  pid: z.number().int().nullable(),
  limitResetsAt: Timestamp.nullable(),
  exitCode: z.number().int().nullable(),
  /** Why it ended: 'exited', 'stopped', 'app-restart' (the host stopped), 'host-died' (found live by the next host), 'spawn-failed: …'. */
  endReason: z.string().nullable(),
  /** The agent CLI's own conversation id, from its hooks, so a restart can resume it. */
  externalSessionId: z.string().nullable(),
  /** The CLI's own plan quota, where it reports one (Claude's status line, for subscribers). */
  quota: AgentQuotaSchema.nullable(),
  /** Read after the session started, without waiting on it (null until then, or for other commands). */
  cliVersion: AgentCliVersionSchema.nullable(),
  startedAt: Timestamp,
  endedAt: Timestamp.nullable(),
  seq: z.number().int().nonnegative(),
});
export type AgentSession = z.infer<typeof AgentSessionSchema>;

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

export const WAKE_STATES = ['waiting', 'delivering', 'delivered', 'failed'] as const;
export const WakeSchema = z.object({
  id: z.string(),
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  messageIds: z.array(z.string()),
  state: z.enum(WAKE_STATES),
  attempts: z.number().int().nonnegative(),
  /** Not delivered before this time (a usage limit's reset, or a retry's backoff). */
  notBefore: Timestamp.nullable(),
  lastError: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Wake = z.infer<typeof WakeSchema>;

/** Where the next part of a work-state snapshot starts: after a task, or after an inbox message. */
export const WorkStateCursorSchema = z.string().regex(/^(tasks:(t-[a-z0-9]{6,32})?|messages:(m-[a-z0-9]{6,32})?)$/, 'not a work-state cursor');
/** A git branch name as a person types it (git check-ref-format decides the rest). */
export const BranchNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(250)
  .refine((name) => !name.startsWith('-'), 'a branch name cannot start with a dash');

export const WORKTREE_STATES = ['creating', 'ready', 'missing'] as const;
export type WorktreeState = (typeof WORKTREE_STATES)[number];

/**
 * An agent's own git worktree: a checkout of its branch outside the repository. `creating` until
 * it is complete (a crash leaves it for the boot reconciliation to clean), `missing` when its
 * folder vanished (the branch is kept).
 */
export const WorktreeSchema = z.object({
  agentId: AgentIdSchema,
  projectId: ProjectIdSchema,
  /** The worktree's root folder. */
  path: z.string(),
  /** Where the agent works: the project's folder inside the worktree (the root, unless the project is a subfolder of its repository). */
  folder: z.string(),
  branch: z.string(),
  /** The branch it was made from and merges back into. */
  parentBranch: z.string(),
  /** The parent's commit the branch started from. */
  baseCommit: z.string(),
  state: z.enum(WORKTREE_STATES),
  /** Drover made the folder (and may remove it); false for an attached existing worktree. */
  ownsFolder: z.boolean(),
  /** Drover made the branch; an attached existing branch is never deleted. */
  ownsBranch: z.boolean(),
  /** First of the ten ports (DROVER_PORT … DROVER_PORT+9) no other live worktree of the machine holds. */
  portBase: z.number().int().nullable(),
  /** When Drover last saw its files change (while someone watches it). */
  changedAt: Timestamp.nullable(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Worktree = z.infer<typeof WorktreeSchema>;

/** Where a new agent works. */
export const AgentWorkspaceRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('project-folder') }).strict(),
  z
    .object({
      kind: z.literal('new-worktree'),
      /** The branch to start from and merge back into; default: the project's current branch. */
      base: BranchNameSchema.optional(),
      /** Default: drover/<agent-name>-<short-random>. */
      branch: BranchNameSchema.optional(),
      /** Start from the base's last commit although the project checkout has uncommitted changes. */
      allowDirtyBase: z.boolean().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('existing-branch'), branch: BranchNameSchema, parent: BranchNameSchema.optional() }).strict(),
  z.object({ kind: z.literal('existing-worktree'), path: z.string().trim().min(1).max(4096), parent: BranchNameSchema.optional() }).strict(),
]);
export type AgentWorkspaceRequest = z.input<typeof AgentWorkspaceRequestSchema>;

/** What a project's repository offers a new agent. */
export const ProjectGitSchema = z.object({
  projectId: ProjectIdSchema,
  /** Null when worktrees can be made; otherwise why not (not a repository, no git, too old a git). */
  problem: z.string().nullable(),
  currentBranch: z.string().nullable(),
  branches: z.array(z.string()),
  /** Tracked files with uncommitted changes in the project checkout. */
  dirtyFiles: z.number().int().nonnegative(),
  /** Worktrees of the repository other than the project checkout and those agents use. */
  freeWorktrees: z.array(z.object({ path: z.string(), branch: z.string().nullable() })),
});
export type ProjectGit = z.infer<typeof ProjectGitSchema>;

/** What removing or merging would touch: the worktree's uncommitted files and its branch's commits. */
export const WorktreeStatusSchema = z.object({
  agentId: AgentIdSchema,
  branch: z.string(),
  parentBranch: z.string(),
  folderExists: z.boolean(),
  branchExists: z.boolean(),
  /** Staged, unstaged and untracked files. */
  uncommittedFiles: z.number().int().nonnegative(),
  /** Commits on the branch that the parent lacks, and the other way round. */
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  /** The branch holds work its parent lacks (by content, so a squash-merged branch counts as merged). */
  unmergedWork: z.boolean(),
});
export type WorktreeStatus = z.infer<typeof WorktreeStatusSchema>;

export const DIFF_FILE_STATUSES = ['added', 'modified', 'deleted', 'renamed', 'copied', 'type-changed'] as const;
export const DIFF_ORIGINS = ['committed', 'staged', 'unstaged', 'untracked'] as const;
export type DiffOrigin = (typeof DIFF_ORIGINS)[number];

export const WorktreeDiffFileSchema = z.object({
  path: z.string(),
  /** For a rename or copy: where it came from. */
  oldPath: z.string().nullable(),
  status: z.enum(DIFF_FILE_STATUSES),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  binary: z.boolean(),
  /** Where its changes lie: in commits of the branch, the index, the working tree, or a new untracked file. */
  origins: z.array(z.enum(DIFF_ORIGINS)),
  /** The file's part of the unified diff (`diff --git …`); null when too large to send (see `git diff`). */
  patch: z.string().nullable(),
});
export type WorktreeDiffFile = z.infer<typeof WorktreeDiffFileSchema>;

export const WorktreeDiffSchema = z.object({
  agentId: AgentIdSchema,
  branch: z.string(),
  parentBranch: z.string(),
  /** What the diff is against: where the branch left its parent (their merge base). */
  base: z.string(),
  head: z.string(),
  commits: z.array(z.object({ sha: z.string(), subject: z.string(), author: z.string(), time: Timestamp })),
  files: z.array(WorktreeDiffFileSchema),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});
export type WorktreeDiff = z.infer<typeof WorktreeDiffSchema>;

export const MERGE_STRATEGIES = ['rebase', 'squash'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

/** What merging the agent's branch into its parent would do, found without touching any checkout. */
export const MergeCheckSchema = z.object({
  agentId: AgentIdSchema,
  branch: z.string(),
  parentBranch: z.string(),
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  /** Files both sides changed in ways git cannot combine. */
  conflicts: z.array(z.string()),
  /** The parent's checkout, if it has one (the project folder, usually). */
  parentCheckout: z.string().nullable(),
  /** Files the merge changes that have uncommitted changes in the parent's checkout. */
  blockingFiles: z.array(z.string()),
  uncommittedFiles: z.number().int().nonnegative(),
  /** Null when the merge can go ahead; otherwise why not, in a person's words. */
  problem: z.string().nullable(),
});
export type MergeCheck = z.infer<typeof MergeCheckSchema>;

export const MergeResultSchema = z.object({
  agentId: AgentIdSchema,
  parentBranch: z.string(),
  strategy: z.enum(MERGE_STRATEGIES),
  /** The parent's new tip. */
  commit: z.string(),
  commits: z.number().int().nonnegative(),
});
export type MergeResult = z.infer<typeof MergeResultSchema>;

export const MERGE_QUEUE_STATES = ['queued', 'rebasing', 'checking', 'merged', 'handed-back'] as const;
export type MergeQueueState = (typeof MERGE_QUEUE_STATES)[number];

/** An entry merged or handed back is done with; until then it waits or is under way (and is not queued again). */
export function isMergeQueueSettled(state: MergeQueueState): boolean {
  return state === 'merged' || state === 'handed-back';
}

/** An agent's branch in the merge queue of its parent branch; a merged or handed-back entry stays until queued again or removed. */
export const MergeQueueEntrySchema = z.object({
  agentId: AgentIdSchema,
  projectId: ProjectIdSchema,
  agentName: z.string(),
  branch: z.string(),
  parentBranch: z.string(),
  state: z.enum(MERGE_QUEUE_STATES),
  /** Why it was handed back (the conflicting files, the check's end), or how it merged. */
  reason: z.string().nullable(),
  /** Its place among its parent's entries: lower goes first. */
  position: z.number().int(),
  /** The check task of its latest check, if one ran. */
  checkTaskId: TaskIdSchema.nullable(),
  /** The parent's tip it landed as. */
  mergedCommit: z.string().nullable(),
  queuedAt: z.number().int(),
  updatedAt: z.number().int(),
  seq: z.number().int().nonnegative(),
});
export type MergeQueueEntry = z.infer<typeof MergeQueueEntrySchema>;

export const WorktreeDiskUsageSchema = z.object({
  projectId: ProjectIdSchema,
  bytes: z.number().int().nonnegative(),
  worktrees: z.array(z.object({ agentId: AgentIdSchema, path: z.string(), bytes: z.number().int().nonnegative() })),
});
export type WorktreeDiskUsage = z.infer<typeof WorktreeDiskUsageSchema>;

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
  /** The agents' entries in the merge queues, in their places. */
  mergeQueue: z.array(MergeQueueEntrySchema),
});
export type ProjectWorkState = z.infer<typeof ProjectWorkStateSchema>;
