import { describe, expect, it } from 'vitest';
import type { AgentProfile } from '../../shared/entities/profiles';
import { EMPTY_WORK_STATE } from '../store/projectWorkState';
import { makeSession } from '../testing/fixtures';
import { accountResetsAt } from './pausedAccounts';

const NOW = 1_800_000_000_000;
const profile = (id: string, integration: AgentProfile['integration']) => ({ id, name: id, integration, env: {}, wakeAs: 'prompt' as const });
const PROFILES = [profile('claude', 'claude'), profile('claude-opus', 'claude'), profile('codex', 'codex')];

describe('accountResetsAt', () => {
  it("is the latest reset among the account's limited or quota-spent sessions, in every project", () => {
    const workStates = {
      'p-1': { ...EMPTY_WORK_STATE, sessionsByAgentId: { 'a-1': makeSession({ agentId: 'a-1', profileId: 'claude', state: 'limited', limitResetsAt: NOW + 1_000 }) } },
      'p-2': {
        ...EMPTY_WORK_STATE,
        sessionsByAgentId: {
          'a-2': makeSession({ agentId: 'a-2', profileId: 'claude-opus', state: 'ready', quota: { fiveHour: { usedPercent: 100, resetsAt: NOW + 5_000 }, weekly: null } }),
          'a-3': makeSession({ agentId: 'a-3', profileId: 'codex', state: 'limited', limitResetsAt: NOW + 9_000 }),
        },
      },
    };
    expect(accountResetsAt('claude:default', workStates, PROFILES, NOW)).toBe(NOW + 5_000);
    expect(accountResetsAt('codex:default', workStates, PROFILES, NOW)).toBe(NOW + 9_000);
    expect(accountResetsAt('gemini:default', workStates, PROFILES, NOW)).toBeNull();
  });
});
