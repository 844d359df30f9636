import { describe, expect, it } from 'vitest';
import { draftFromProfile, EMPTY_DRAFT, profileFromDraft } from './profileDraft';

describe('profile drafts', () => {
  it('round-trips a profile through the form fields', () => {
    const profile = {
      id: 'fake',
      name: 'Fake agent',
      command: '/usr/bin/node',
      args: ['fake-agent.mjs', '--model', 'a b'],
      env: { FAKE_AGENT_WORK_MS: '600', EMPTY: '' },
      promptPattern: '^fake> ?$',
      busyPattern: 'esc to interrupt',
      needsInputPattern: null,
      usageLimitPattern: 'hit your session limit',
      quietMs: 150,
      integration: 'claude' as const,
      wakeAs: 'prompt' as const,
    };
    expect(profileFromDraft(draftFromProfile(profile))).toEqual({ profile });
  });

  it('reads one argument and one NAME=value per line, skipping blank lines', () => {
    const result = profileFromDraft({ ...EMPTY_DRAFT, id: 'x', name: 'X', command: 'x', args: 'a\n\n b \n', env: 'A=1=2\n' });
    expect(result).toMatchObject({ profile: { args: ['a', 'b'], env: { A: '1=2' } } });
  });

  it('names the fields that are wrong', () => {
    const result = profileFromDraft({ ...EMPTY_DRAFT, id: 'Bad Id', name: 'X', command: '', env: 'nonsense', busyPattern: '(', quietMs: 'soon' });
    expect('problems' in result && Object.keys(result.problems).sort()).toEqual(['busyPattern', 'command', 'env', 'id', 'quietMs']);
  });
});
