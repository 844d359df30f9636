import { AGENT_INTEGRATIONS, AgentProfileInputSchema, type AgentProfileInput, type WakeStyle } from '../../shared/entities';

/** A profile as the form edits it: every field text, lists one entry per line. */
export interface ProfileDraft {
  id: string;
  name: string;
  command: string;
  /** One argument per line (no shell quoting to get wrong). */
  args: string;
  /** One `NAME=value` per line. */
  env: string;
  promptPattern: string;
  busyPattern: string;
  needsInputPattern: string;
  usageLimitPattern: string;
  quietMs: string;
  integration: (typeof AGENT_INTEGRATIONS)[number];
  wakeAs: WakeStyle;
}

export type DraftProblems = Partial<Record<keyof ProfileDraft, string>>;

export const EMPTY_DRAFT: ProfileDraft = {
  id: '',
  name: '',
  command: '',
  args: '',
  env: '',
  promptPattern: '',
  busyPattern: '',
  needsInputPattern: '',
  usageLimitPattern: '',
  quietMs: '800',
  integration: 'none',
  wakeAs: 'prompt',
};

export function draftFromProfile(profile: AgentProfileInput): ProfileDraft {
  return {
    id: profile.id,
    name: profile.name,
    command: profile.command,
    args: profile.args.join('\n'),
    env: Object.entries(profile.env)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n'),
    promptPattern: profile.promptPattern ?? '',
    busyPattern: profile.busyPattern ?? '',
    needsInputPattern: profile.needsInputPattern ?? '',
    usageLimitPattern: profile.usageLimitPattern ?? '',
    quietMs: String(profile.quietMs),
    integration: profile.integration,
    wakeAs: profile.wakeAs,
  };
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

function parseEnv(text: string): { env: Record<string, string> } | { problem: string } {
  const env: Record<string, string> = {};
  for (const line of lines(text)) {
    const equals = line.indexOf('=');
    if (equals <= 0) return { problem: `“${line}” is not NAME=value.` };
    env[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return { env };
}

const orNull = (pattern: string) => (pattern.trim() ? pattern.trim() : null);

/** The profile to save, or what is wrong with the draft, field by field (the contract's own rules). */
export function profileFromDraft(draft: ProfileDraft): { profile: AgentProfileInput } | { problems: DraftProblems } {
  const env = parseEnv(draft.env);
  const candidate = {
    id: draft.id.trim(),
    name: draft.name.trim(),
    command: draft.command.trim(),
    args: lines(draft.args),
    env: 'env' in env ? env.env : {},
    promptPattern: orNull(draft.promptPattern),
    busyPattern: orNull(draft.busyPattern),
    needsInputPattern: orNull(draft.needsInputPattern),
    usageLimitPattern: orNull(draft.usageLimitPattern),
    quietMs: Number(draft.quietMs),
    integration: draft.integration,
    wakeAs: draft.wakeAs,
  };
  const parsed = AgentProfileInputSchema.safeParse(candidate);
  const problems: DraftProblems = 'problem' in env ? { env: env.problem } : {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof ProfileDraft;
      problems[field] ??= issue.message;
    }
  }
  if (Object.keys(problems).length > 0 || !parsed.success) return { problems };
  return { profile: parsed.data };
}
