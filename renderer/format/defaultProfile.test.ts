import { describe, expect, it } from 'vitest';
import type { Agent } from '../../shared/entities/agents';
import type { AgentProfile } from '../../shared/entities/profiles';
import { defaultProfile } from './defaultProfile';

function profile(id: string, unavailableReason: string | null = null): AgentProfile {
  return {
    id,
    name: id.toUpperCase(),
    command: id,
    args: [],
    env: {},
    promptPattern: '\\$ ?$',
    busyPattern: null,
    needsInputPattern: null,
    usageLimitPattern: null,
    quietMs: 150,
    integration: 'none',
    wakeAs: 'shell-note',
    builtIn: false,
    unavailableReason,
  };
}

function agent(name: string, profileId: string): Agent {
  return { id: name, projectId: 'p', name, role: '', profileId, wakesHeld: false, createdAt: 0, seq: 0 };
}

describe('defaultProfile', () => {
  it('is the first runnable profile in a project without agents', () => {
    expect(defaultProfile([profile('claude', 'claude is not installed.'), profile('shell')], [])).toEqual({ profileId: 'shell', fallbackReason: null });
  });

  it('is the profile of the agent added last while it can start', () => {
    expect(defaultProfile([profile('claude'), profile('shell')], [agent('a', 'claude'), agent('b', 'shell')])).toEqual({ profileId: 'shell', fallbackReason: null });
  });

  it('keeps the remembered profile when no profile can start, leaving its own note to say why', () => {
    const profiles = [profile('claude', 'claude is not installed.'), profile('shell', 'sh is not installed.')];
    expect(defaultProfile(profiles, [agent('b', 'shell')])).toEqual({ profileId: 'shell', fallbackReason: null });
  });
});
