import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AutomationTriggerSchema } from '../../../shared/automations';
import { followUpCommand } from './automationWork';
import { checkTemplate, fillTemplate } from './eventTemplate';

const failedBuild = { key: 'task:t-1', trigger: 'task build failed', fields: { 'task.label': 'build', 'task.exitCode': '2', 'task.tail': "it's $(rm -rf ~) `broken`" } };

describe('event templates', () => {
  it('refuses a field the trigger does not have, naming the ones it has', () => {
    expect(() => checkTemplate('echo {task.label} {issue.title}', 'task-ended', 'command')).toThrow(
      'The command names {issue.title}, which a task-ended trigger does not have: its events have {task.label}, {task.exitCode}, {task.tail}.',
    );
    expect(() => checkTemplate('echo {task.label}', 'schedule', 'message')).toThrow('a schedule trigger does not have: its events have no fields');
    expect(() => checkTemplate('echo {task.label} {task.exitCode} {task.tail}', 'task-ended', 'command')).not.toThrow();
  });

  it('refuses a field inside quotes of a command, where its value would be unquoted again', () => {
    for (const command of ['echo "{task.tail}"', "echo '{task.label}'", 'echo "tail: {task.tail} end"']) {
      expect(() => checkTemplate(command, 'task-ended', 'command'), command).toThrow('The command has {task.');
    }
    expect(() => checkTemplate('echo "done:" {task.label} \\"{task.exitCode}', 'task-ended', 'command')).not.toThrow();
    expect(() => checkTemplate('Look at "{task.tail}"', 'task-ended', 'message')).not.toThrow();
  });

  it('puts the failed task in a follow-up command as quoted words and as environment variables', () => {
    const command = followUpCommand('echo "$DROVER_EVENT_TASK_LABEL/$DROVER_EVENT_TASK_EXIT_CODE" {task.label} {task.exitCode} {task.tail}', failedBuild);
    expect(execFileSync('/bin/sh', ['-c', command], { encoding: 'utf8' })).toBe("build/2 build 2 it's $(rm -rf ~) `broken`\n");
  });

  it('fills a message as plain text, and a field its event lacks as nothing', () => {
    expect(fillTemplate('{task.label} ended with {task.exitCode}', failedBuild.fields, 'text')).toBe('build ended with 2');
    expect(fillTemplate('label [{task.label}]', {}, 'text')).toBe('label []');
  });

  it('refuses a label with shell characters', () => {
    const parsed = AutomationTriggerSchema.safeParse({ kind: 'task-ended', label: 'build; rm -rf ~', outcome: 'failed' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('no spaces or shell characters');
  });
});
