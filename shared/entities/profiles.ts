import { z } from 'zod';
import { ProfileIdSchema } from './ids';

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
