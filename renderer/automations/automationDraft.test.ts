import { describe, expect, it } from 'vitest';
import { METHODS } from '../../shared/contract';
import { EMPTY_DRAFT, newAutomationOf, TRIGGER_CHOICES } from './automationDraft';

const PROJECT = 'p-abc123';

describe('newAutomationOf', () => {
  it('asks for a schedule in the given time zone that runs a task', () => {
    const params = newAutomationOf(PROJECT, { ...EMPTY_DRAFT, name: ' nightly ', cron: ' 0 2 * * 1-5 ', command: 'npm test' }, 'Europe/Paris');
    expect(params).toEqual({
      projectId: PROJECT,
      name: 'nightly',
      trigger: { kind: 'schedule', cron: '0 2 * * 1-5', timeZone: 'Europe/Paris' },
      action: { kind: 'task', command: 'npm test', cwd: null },
    });
  });

  it('turns a task outcome choice into the task-ended trigger with that outcome', () => {
    const triggerOf = (trigger: (typeof EMPTY_DRAFT)['trigger']) => newAutomationOf(PROJECT, { ...EMPTY_DRAFT, trigger, word: 'build' }, 'UTC').trigger;
    expect(triggerOf('task-failed')).toEqual({ kind: 'task-ended', label: 'build', outcome: 'failed' });
    expect(triggerOf('task-succeeded')).toEqual({ kind: 'task-ended', label: 'build', outcome: 'succeeded' });
    expect(triggerOf('task-ended')).toEqual({ kind: 'task-ended', label: 'build', outcome: 'any' });
    expect(triggerOf('check-failed')).toEqual({ kind: 'check-failed', branch: 'build' });
  });

  it('leaves an agent-failed rule on any agent when no agent is named, and an agent start on the current branch when no base is', () => {
    const params = newAutomationOf(PROJECT, { ...EMPTY_DRAFT, name: 'retry', trigger: 'agent-failed', action: 'agent', profileId: 'shell', prompt: 'Look at {agent.reason}' }, 'UTC');
    expect(params.trigger).toEqual({ kind: 'agent-failed', agent: null });
    expect(params.action).toEqual({ kind: 'agent', profileId: 'shell', prompt: 'Look at {agent.reason}', base: null });
  });

  it('gives every trigger choice, filled in, params the contract accepts', () => {
    for (const { value } of TRIGGER_CHOICES) {
      const params = newAutomationOf(PROJECT, { ...EMPTY_DRAFT, name: 'rule', trigger: value, cron: '@daily', word: 'main', action: 'message', agent: 'sam', text: 'hello' }, 'UTC');
      expect(METHODS.addAutomation.params.safeParse(params).error, value).toBeUndefined();
    }
  });
});
