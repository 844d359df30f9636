import { AGENT_INTEGRATIONS, AgentProfileInputSchema, type AgentProfileInput, type WakeStyle } from '../../shared/entities/profiles';

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

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `NAME=value` lines; every line that is not one is named, with its number, so all get fixed at once. */
function parseEnv(text: string): { env: Record<string, string> } | { problem: string } {
  const env: Record<string, string> = {};
  const bad: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const equals = line.indexOf('=');
    const name = line.slice(0, Math.max(equals, 0));
    if (equals <= 0 || !ENV_NAME.test(name)) bad.push(`line ${index + 1} (${line})`);
    else env[name] = line.slice(equals + 1);
  });
  if (bad.length > 0) return { problem: `Each line is NAME=value, the name letters, digits and _ (not starting with a digit): ${bad.join(', ')}.` };
  return { env };
}

/** Why the pattern is no regular expression, in the browser's words, or null when it is one. */
function patternProblem(pattern: string): string | null {
  try {
    new RegExp(pattern, 'm');
    return null;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split(': ').pop() ?? error.message) : String(error);
    return `Not a regular expression: ${reason}.`;
  }
}

const PATTERN_FIELDS = ['promptPattern', 'busyPattern', 'needsInputPattern', 'usageLimitPattern'] as const;

/** The checks a person can act on, field by field; the contract's schema still has the last word. */
function draftProblems(draft: ProfileDraft): DraftProblems {
  const problems: DraftProblems = {};
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(draft.id.trim())) problems.id = 'Give the profile an id: lowercase letters, digits and dashes, e.g. my-agent.';
  if (!draft.name.trim()) problems.name = 'Give the profile a name.';
  else if (draft.name.trim().length > 100) problems.name = 'Keep the name to 100 characters.';
  if (!draft.command.trim()) problems.command = 'Type the command that starts the agent CLI.';
  const quietMs = Number(draft.quietMs);
  if (!/^\s*\d+\s*$/.test(draft.quietMs) || quietMs < 50 || quietMs > 60_000) problems.quietMs = 'A quiet period is a whole number of milliseconds, from 50 to 60000.';
  for (const field of PATTERN_FIELDS) {
    const problem = draft[field].trim() ? patternProblem(draft[field].trim()) : null;
    if (problem) problems[field] = problem;
  }
  return problems;
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
  const problems: DraftProblems = { ...draftProblems(draft), ...('problem' in env ? { env: env.problem } : {}) };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof ProfileDraft;
      problems[field] ??= issue.message;
    }
  }
  if (Object.keys(problems).length > 0 || !parsed.success) return { problems };
  return { profile: parsed.data };
}
