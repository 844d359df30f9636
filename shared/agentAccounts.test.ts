import { describe, expect, it } from 'vitest';
import { accountOf } from './agentAccounts';

const profile = (integration: 'claude' | 'codex' | 'gemini' | 'opencode' | 'none', env: Record<string, string> = {}, id: string = integration, wakeAs: 'prompt' | 'shell-note' = 'prompt') => ({
  id,
  name: `${id} profile`,
  integration,
  env,
  wakeAs,
});

describe('accountOf', () => {
  it('puts the agents of one CLI login in one account, and a login kept elsewhere in its own', () => {
    expect(accountOf(profile('claude'))).toEqual({ key: 'claude:default', label: 'Claude Code' });
    expect(accountOf(profile('claude', {}, 'claude-opus'))).toEqual(accountOf(profile('claude')));
    expect(accountOf(profile('claude', { CLAUDE_CONFIG_DIR: '/work/.claude-b' }))).toEqual({ key: 'claude:/work/.claude-b', label: 'Claude Code (/work/.claude-b)' });
    expect(accountOf(profile('codex', { CODEX_HOME: '/c' }))?.key).toBe('codex:/c');
    expect(accountOf(profile('opencode'))).toEqual({ key: 'opencode:default', label: 'OpenCode' });
    expect(accountOf(profile('opencode', { XDG_DATA_HOME: '/d' }))?.key).toBe('opencode:/d');
  });

  it('gives a Gemini profile with its own API key, and any other profile, an account of its own', () => {
    expect(accountOf(profile('gemini'))?.key).toBe('gemini:default');
    expect(accountOf(profile('gemini', { GEMINI_API_KEY: 'k' }, 'gemini-key'))).toEqual({ key: 'gemini:profile:gemini-key', label: 'Gemini CLI (gemini-key profile)' });
    expect(accountOf(profile('none', {}, 'aider'))).toEqual({ key: 'profile:aider', label: 'aider profile' });
  });

  it('gives a shell no account: it spends none, so there is nothing to pause', () => {
    expect(accountOf(profile('none', {}, 'shell', 'shell-note'))).toBeNull();
  });
});
