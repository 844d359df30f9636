import { describe, expect, it } from 'vitest';
import { METHODS } from '../../shared/contract';
import type { Automation } from '../../shared/automations';
import { draftOf, EMPTY_DRAFT, newAutomationOf, ruleOf, TRIGGER_CHOICES } from './automationDraft';

const PROJECT = 'p-abc123';

describe('newAutomationOf', () => {
  it('asks for a schedule in the given time zone that runs a task', () => {
    const params = newAutomationOf(PROJECT, { ...EMPTY_DRAFT, name: ' nightly ', cron: ' 0 2 * * 1-5 ', command: 'npm test' }, 'Europe/Paris');
    expect(params).toEqual({
      projectId: PROJECT,
      name: 'nightly',
      trigger: { kind: 'schedule', cron: '0 2 * * 1-5', timeZone: 'Europe/Paris' },
      action: { kind: 'task', command: 'npm test', cwd: null, owner: null },
      dailyCap: 48,
      catchUpMs: 3_600_000,
    });
  });

  it('gives a task its folder and owner, and the rule its cap and catch-up window, refusing what is no whole number as the CLI does', () => {
    const draft = { ...EMPTY_DRAFT, cron: '@daily', command: 'npm test', cwd: ' web ', owner: 'Fixer', dailyCap: '3', catchUpMinutes: '15' };
    expect(ruleOf(draft, 'UTC')).toMatchObject({ action: { kind: 'task', command: 'npm test', cwd: 'web', owner: 'Fixer' }, dailyCap: 3, catchUpMs: 900_000 });
    expect(() => ruleOf({ ...draft, dailyCap: 'lots' }, 'UTC')).toThrow('Daily cap takes a whole number (not "lots")');
    expect(() => ruleOf({ ...draft, catchUpMinutes: '-5' }, 'UTC')).toThrow('Catch-up window takes a whole number (not "-5")');
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

describe('draftOf', () => {
  const base: Automation = {
    id: 'u-nightly1',
    projectId: PROJECT,
    name: 'nightly',
    trigger: { kind: 'schedule', cron: '0 3 * * *', timeZone: 'Asia/Tokyo' },
    action: { kind: 'task', command: 'npm update', cwd: 'web', owner: 'Fixer' },
    enabled: true,
    pausedReason: null,
    dailyCap: 5,
    catchUpMs: 1_800_000,
    failuresInRow: 0,
    nextRunAt: null,
    lastRun: null,
    createdAt: 0,
  };

  it('fills the form with each kind of rule so that saving it unchanged asks for the same rule', () => {
    const rules: Pick<Automation, 'trigger' | 'action'>[] = [
      base,
      { trigger: { kind: 'task-ended', label: 'build', outcome: 'failed' }, action: { kind: 'message', agent: 'Fixer', text: 'look at {task.tail}' } },
      { trigger: { kind: 'task-ended', label: 'build', outcome: 'any' }, action: { kind: 'agent', profileId: 'claude', prompt: 'fix it', base: 'main' } },
      { trigger: { kind: 'agent-failed', agent: null }, action: { kind: 'task', command: 'true', cwd: null, owner: null } },
      { trigger: { kind: 'issue-labelled', label: 'agent' }, action: { kind: 'agent', profileId: 'claude', prompt: '{issue.title}', base: null } },
      { trigger: { kind: 'check-failed', branch: 'main' }, action: base.action },
      { trigger: { kind: 'changes-requested' }, action: base.action },
    ];
    for (const rule of rules) {
      const automation = { ...base, ...rule };
      expect(ruleOf(draftOf(automation), 'Asia/Tokyo')).toEqual({ trigger: rule.trigger, action: rule.action, dailyCap: 5, catchUpMs: 1_800_000 });
    }
  });
});
