import { z } from 'zod';
import { ForgeApiUrlSchema, RepositoryNameSchema } from '../forge';
import { ProjectIdSchema, Timestamp } from './ids';

export const ProjectSchema = z.object({
  id: ProjectIdSchema,
  name: z.string(),
  path: z.string(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Project = z.infer<typeof ProjectSchema>;

/** The most checkpoints kept per agent, whatever the setting (a turn list is one reply). */
export const MAX_CHECKPOINTS_KEPT = 1000;

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
  /** Two agents' branches that start to conflict are a Needs you item (see ConflictNotice). */
  conflictAlerts: z.boolean(),
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
  conflictAlerts: false,
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
