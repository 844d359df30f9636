import type { AgentProfile } from './entities/profiles';

/**
 * The account an agent's CLI spends: agents of one account share its usage limits, so a person
 * pauses them together. Claude Code's, Codex's and Copilot CLI's logins live in their config folder (the profile
 * may point it elsewhere), OpenCode's in its data folder; a Gemini profile with its own API key is its own account; any other
 * profile (Aider) counts as an account of its own. A shell (a profile that wakes as a shell note) spends none.
 */
export interface AgentAccount {
  key: string;
  /** What the person reads: the CLI, and the folder where it is not the default one. */
  label: string;
}

export type AccountProfile = Pick<AgentProfile, 'id' | 'name' | 'integration' | 'env' | 'wakeAs'>;

function inFolder(cli: string, key: string, folder: string | undefined): AgentAccount {
  return folder ? { key: `${key}:${folder}`, label: `${cli} (${folder})` } : { key: `${key}:default`, label: cli };
}

export function accountOf(profile: AccountProfile): AgentAccount | null {
  if (profile.wakeAs === 'shell-note') return null;
  switch (profile.integration) {
    case 'claude':
      return inFolder('Claude Code', 'claude', profile.env.CLAUDE_CONFIG_DIR);
    case 'codex':
      return inFolder('Codex CLI', 'codex', profile.env.CODEX_HOME);
    case 'gemini':
      return profile.env.GEMINI_API_KEY || profile.env.GOOGLE_API_KEY
        ? { key: `gemini:profile:${profile.id}`, label: `Gemini CLI (${profile.name})` }
        : { key: 'gemini:default', label: 'Gemini CLI' };
    case 'copilot':
      return inFolder('GitHub Copilot CLI', 'copilot', profile.env.COPILOT_HOME);
    case 'opencode':
      // Its logins (auth.json) live in its data folder: `$XDG_DATA_HOME/opencode`.
      return inFolder('OpenCode', 'opencode', profile.env.XDG_DATA_HOME);
    case 'none':
      return { key: `profile:${profile.id}`, label: profile.name };
  }
}
