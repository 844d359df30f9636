import { describe, expect, it } from 'vitest';
import type { Automation } from '../../shared/automations';
import { METHODS } from '../../shared/contract';
import { newRule, ruleChange } from './automationRule';

const context = { timeZone: 'Europe/Paris', folder: (given: string) => `/home/sam/shop/${given}` };

const nightly: Automation = {
  id: 'u-nightly1',
  projectId: 'p-abc123',
  name: 'nightly',
  trigger: { kind: 'schedule', cron: '0 3 * * *', timeZone: 'Asia/Tokyo' },
  action: { kind: 'task', command: 'npm update', cwd: '/home/sam/shop/web', owner: 'Fixer' },
  enabled: true,
  pausedReason: null,
  dailyCap: 48,
  catchUpMs: 3_600_000,
  failuresInRow: 0,
  nextRunAt: null,
  lastRun: null,
  createdAt: 0,
};

describe('drover automation add', () => {
  it('reads a schedule in the person’s time zone, and refuses a flag of another action', () => {
    expect(newRule({ cron: '@daily', task: 'npm test', cwd: 'web', dailyCap: '3', catchUpMinutes: '5' }, context)).toEqual({
      trigger: { kind: 'schedule', cron: '@daily', timeZone: 'Europe/Paris' },
      action: { kind: 'task', command: 'npm test', cwd: '/home/sam/shop/web', owner: null },
      dailyCap: 3,
      catchUpMs: 300_000,
    });
    expect(() => newRule({ cron: '@daily', message: 'Fixer', text: 'hi', owner: 'Fixer' }, context)).toThrow('--owner goes with --task CMD (this action is --message AGENT)');
    expect(() => newRule({ on: 'task-failed', task: 'true' }, context)).toThrow('--on task-failed needs the task label it waits for');
    expect(() => newRule({ cron: '@daily', task: 'true', agent: 'claude' }, context)).toThrow('takes one action');
  });
});

describe('drover automation edit', () => {
  const change = (flags: Parameters<typeof ruleChange>[0]) => ruleChange(flags, nightly, context);

  it('changes only what is given: a new cron keeps the time zone, a new folder keeps the command and owner', () => {
    expect(change({ cron: '30 4 * * 1-5' })).toEqual({ trigger: { kind: 'schedule', cron: '30 4 * * 1-5', timeZone: 'Asia/Tokyo' }, action: undefined, dailyCap: undefined, catchUpMs: undefined });
    expect(change({ cwd: 'api' }).action).toEqual({ kind: 'task', command: 'npm update', cwd: '/home/sam/shop/api', owner: 'Fixer' });
    expect(change({ owner: '', cwd: '' }).action).toEqual({ kind: 'task', command: 'npm update', cwd: null, owner: null });
    expect(change({ timeZone: 'UTC' }).trigger).toEqual({ kind: 'schedule', cron: '0 3 * * *', timeZone: 'UTC' });
    expect(change({ dailyCap: '2' })).toEqual({ trigger: undefined, action: undefined, dailyCap: 2, catchUpMs: undefined });
    expect(change({ on: 'check-failed=main' }).trigger).toEqual({ kind: 'check-failed', branch: 'main' });
  });

  it('makes a new action of another kind from its own flags alone', () => {
    expect(change({ message: 'Fixer', text: 'look at the build' }).action).toEqual({ kind: 'message', agent: 'Fixer', text: 'look at the build' });
    expect(() => change({ message: 'Fixer' })).toThrow('--message AGENT needs the message: --text TEXT');
    expect(() => change({ prompt: 'hi' })).toThrow('--prompt goes with --agent PROFILE (this action is --task CMD)');
    expect(() => change({ cron: '@daily', on: 'issue-opened' })).toThrow('one trigger');
    expect(() => ruleChange({ timeZone: 'UTC' }, { ...nightly, trigger: { kind: 'issue-opened' } }, context)).toThrow('--time-zone goes with a schedule');
  });

  it('asks for something to change, and gives the host params its contract accepts', () => {
    expect(() => change({})).toThrow('drover automation edit needs something to change');
    const params = { projectId: nightly.projectId, name: nightly.name, ...change({ cron: '@hourly', task: 'npm ci', catchUpMinutes: '0' }) };
    expect(METHODS.updateAutomation.params.parse(params)).toEqual({ ...params, action: { kind: 'task', command: 'npm ci', cwd: '/home/sam/shop/web', owner: 'Fixer' }, catchUpMs: 0 });
  });
});
