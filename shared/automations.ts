import { z } from 'zod';
import { ProjectIdSchema, TaskIdSchema } from './entities/ids';

export const AutomationIdSchema = z.string().regex(/^u-[a-z0-9]{6,32}$/, 'not an automation id');
export const AutomationNameSchema = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'an automation name is letters, digits, spaces, dots, dashes and underscores');

export const TASK_OUTCOMES = ['succeeded', 'failed', 'any'] as const;

/** A label or branch a rule names: it reaches commands and prompts, so no shell character is let in. */
export const RuleWordSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._/@+:-]+$/, 'a label or branch name here is letters, digits and . _ / @ + : - (no spaces or shell characters)');

/**
 * The project's GitHub issues and a branch's checks, as the host polls them (each issue, each failed
 * check run, sets a rule off once), and changes requested on an agent's pull request (once per head commit).
 */
export const GITHUB_TRIGGERS = [
  z.object({ kind: z.literal('issue-labelled'), label: RuleWordSchema }).strict(),
  z.object({ kind: z.literal('issue-opened') }).strict(),
  z.object({ kind: z.literal('check-failed'), branch: RuleWordSchema }).strict(),
  z.object({ kind: z.literal('changes-requested') }).strict(),
] as const;

/** The triggers an event sets off: everything but a schedule. */
export const EVENT_TRIGGERS = [
  z.object({ kind: z.literal('task-ended'), label: RuleWordSchema, outcome: z.enum(TASK_OUTCOMES) }).strict(),
  /** An agent's process ended with an error (a crash, a failed start); `agent` names one, null: any. */
  z.object({ kind: z.literal('agent-failed'), agent: RuleWordSchema.nullable() }).strict(),
  ...GITHUB_TRIGGERS,
] as const;

export const AutomationTriggerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('schedule'), cron: z.string().min(1).max(200), timeZone: z.string().min(1).max(100) }).strict(),
  ...EVENT_TRIGGERS,
]);
export type AutomationTrigger = z.infer<typeof AutomationTriggerSchema>;

/** The triggers that read the project's GitHub repository (a rule needs it reachable). */
export const GITHUB_TRIGGER_KINDS: ReadonlySet<AutomationTrigger['kind']> = new Set(GITHUB_TRIGGERS.map((trigger) => trigger.shape.kind.value));

export const AutomationActionSchema = z.discriminatedUnion('kind', [
  /** A task in `cwd` (default: the project's folder), owned by the agent named `owner` (its result goes to that agent's inbox), or by none. */
  z
    .object({ kind: z.literal('task'), command: z.string().min(1).max(10_000), cwd: z.string().max(4096).nullable(), owner: z.string().min(1).max(100).nullable().default(null) })
    .strict(),
  z.object({ kind: z.literal('message'), agent: z.string().min(1).max(100), text: z.string().min(1).max(20_000) }).strict(),
  /** A new agent in its own worktree from `base` (default: the project's current branch), its first prompt the filled template. */
  z.object({ kind: z.literal('agent'), profileId: z.string().min(1).max(40), prompt: z.string().min(1).max(20_000), base: RuleWordSchema.nullable() }).strict(),
]);
export type AutomationAction = z.infer<typeof AutomationActionSchema>;

export const AUTOMATION_RUN_STATES = ['running', 'succeeded', 'failed', 'skipped'] as const;
export type AutomationRunState = (typeof AUTOMATION_RUN_STATES)[number];

export const AutomationRunSchema = z.object({
  id: z.string(),
  automationId: AutomationIdSchema,
  /** What set it off, in words ("schedule 09:00", "task build failed (exit 2)", "run now"). */
  trigger: z.string(),
  state: z.enum(AUTOMATION_RUN_STATES),
  /** The task it started, or the agent it started or sent a message to. */
  taskId: TaskIdSchema.nullable(),
  agentId: z.string().nullable(),
  /** Why it failed or was skipped. */
  reason: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
});
export type AutomationRun = z.infer<typeof AutomationRunSchema>;

/** How many failed runs in a row pause an automation (and make it a Needs you item). */
export const FAILURES_BEFORE_PAUSE = 3;
export const DEFAULT_DAILY_CAP = 48;
export const DEFAULT_CATCH_UP_MS = 3_600_000;

export const AutomationSchema = z.object({
  id: AutomationIdSchema,
  projectId: ProjectIdSchema,
  name: AutomationNameSchema,
  trigger: AutomationTriggerSchema,
  action: AutomationActionSchema,
  enabled: z.boolean(),
  /** Why it is paused, when it paused itself. */
  pausedReason: z.string().nullable(),
  /** The most runs it starts in one day of its time zone (skipped runs do not count). */
  dailyCap: z.number().int().positive(),
  /** How late a schedule missed while the host was down may be and still run once at the next start. */
  catchUpMs: z.number().int().nonnegative(),
  failuresInRow: z.number().int().nonnegative(),
  /** A schedule's next run, when it is enabled. */
  nextRunAt: z.number().nullable(),
  lastRun: z.object({ state: z.enum(AUTOMATION_RUN_STATES), at: z.number() }).nullable(),
  createdAt: z.number(),
});
export type Automation = z.infer<typeof AutomationSchema>;

/** What the work state holds of an automation: enough for the Needs you queue to show one that paused itself. */
export const AutomationNoticeSchema = z.object({
  id: AutomationIdSchema,
  projectId: ProjectIdSchema,
  name: z.string(),
  enabled: z.boolean(),
  /** Why it paused itself; null when it runs, or the person paused it. */
  pausedReason: z.string().nullable(),
  seq: z.number().int().nonnegative(),
});
export type AutomationNotice = z.infer<typeof AutomationNoticeSchema>;

export function describeTrigger(trigger: AutomationTrigger): string {
  if (trigger.kind === 'issue-labelled') return `issue labelled ${trigger.label}`;
  if (trigger.kind === 'issue-opened') return 'issue opened';
  if (trigger.kind === 'check-failed') return `check failed on ${trigger.branch}`;
  if (trigger.kind === 'changes-requested') return "changes requested on an agent's pull request";
  if (trigger.kind === 'agent-failed') return trigger.agent === null ? 'an agent failed' : `agent ${trigger.agent} failed`;
  return trigger.kind === 'schedule' ? `cron ${trigger.cron} (${trigger.timeZone})` : `task ${trigger.label} ${trigger.outcome === 'any' ? 'ended' : trigger.outcome}`;
}

export function describeAction(action: AutomationAction): string {
  if (action.kind === 'agent') return `agent (${action.profileId}${action.base === null ? '' : ` from ${action.base}`}): ${action.prompt}`;
  if (action.kind === 'task') return `task${action.owner === null ? '' : ` (${action.owner}'s)`}: ${action.command}`;
  return `message to ${action.agent}: ${action.text}`;
}
