import { z } from 'zod';
import { AgentIdSchema, ProfileIdSchema, ProjectIdSchema, Timestamp } from './ids';

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

/** A session whose process ended by itself with an error (not stopped by a person, not by a restart), or never started. */
export function endedWithError(session: AgentSession): boolean {
  if (session.state !== 'exited') return false;
  if (session.endReason?.startsWith('spawn-failed')) return true;
  return session.endReason === 'exited' && session.exitCode !== 0;
}
