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

describe('what the profile form says is wrong', () => {
  const problemsOf = (draft: Partial<typeof EMPTY_DRAFT>) => {
    const result = profileFromDraft({ ...EMPTY_DRAFT, id: 'x', name: 'X', command: 'x', ...draft });
    return 'problems' in result ? result.problems : {};
  };

  it('says it in words, never in the validation library’s', () => {
    const problems = problemsOf({ id: '', name: ' ', command: '', quietMs: '20', promptPattern: '(unclosed' });
    expect(problems.id).toBe('Give the profile an id: lowercase letters, digits and dashes, e.g. my-agent.');
    expect(problems.name).toBe('Give the profile a name.');
    expect(problems.command).toBe('Type the command that starts the agent CLI.');
    expect(problems.quietMs).toBe('A quiet period is a whole number of milliseconds, from 50 to 60000.');
    for (const text of Object.values(problems)) expect(text).not.toMatch(/expected|Too small|>=|characters/);
  });

  it('gives a bad pattern’s reason', () => {
    expect(problemsOf({ promptPattern: '(unclosed' }).promptPattern).toBe('Not a regular expression: Unterminated group.');
    expect(problemsOf({ busyPattern: 'a{2,1}' }).busyPattern).toBe('Not a regular expression: numbers out of order in {} quantifier.');
  });

  it('flags every bad Environment line, by line number', () => {
    expect(problemsOf({ env: 'GOOD=1\nnonsense\n\n1BAD=2\nALSO_GOOD=3\n=x' }).env).toBe(
      'Each line is NAME=value, the name letters, digits and _ (not starting with a digit): line 2 (nonsense), line 4 (1BAD=2), line 6 (=x).',
    );
  });
});
