import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../shared/entities/tasks';
import { makeMessage } from '../../../test-support/inboxMessage';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { composeWakeText } from '../wake/wakeText';
import { describeTaskResult } from './taskResultText';

const MESSAGE = makeMessage({ kind: 'task-result', body: '', taskId: 't-aaaaaa' });

describe('describeTaskResult', () => {
  let dir: string;
  let logPath: string;
  beforeEach(() => {
    dir = makeTempDir();
    logPath = path.join(dir, 'task.log');
    fs.writeFileSync(logPath, 'compiling\r\n\u001b[31merror: 2 tests failed\u001b[0m\r\n');
  });
  afterEach(() => removeDir(dir));

  const task = (changes: Partial<Task>): Task => ({
    id: 't-aaaaaa',
    projectId: 'p-aaaaaa',
    ownerAgentId: 'a-aaaaaa',
    label: null,
    command: 'make test',
    cwd: dir,
    state: 'failed',
    exitCode: 3,
    signal: null,
    reason: 'exit code 3',
    attempt: 1,
    retryOf: null,
    createdAt: 1_000,
    startedAt: 1_000,
    endedAt: 3_000,
    pid: null,
    pidStartTime: null,
    logPath,
    outputBytes: 40,
    seq: 1,
    ...changes,
  });

  it('states the exit code once, then the duration and the plain output tail', () => {
    const text = describeTaskResult(task({}));
    expect(text.split('\n')[0]).toBe('Task t-aaaaaa "make test" failed: exit code 3, after 2s.');
    expect(text).toContain('Output tail:\ncompiling\nerror: 2 tests failed');
  });

  it('names a signal once, and keeps what a reason adds beyond the exit', () => {
    expect(describeTaskResult(task({ exitCode: null, signal: 'SIGKILL', reason: 'killed by SIGKILL' })).split('\n')[0]).toBe(
      'Task t-aaaaaa "make test" failed: killed by SIGKILL, after 2s.',
    );
    expect(describeTaskResult(task({ reason: 'exit code 3; output not fully saved: ENOSPC' })).split('\n')[0]).toBe(
      'Task t-aaaaaa "make test" failed: exit code 3, after 2s (output not fully saved: ENOSPC).',
    );
    expect(describeTaskResult(task({ state: 'cancelled', exitCode: null, signal: 'SIGTERM', reason: 'cancelled by request' })).split('\n')[0]).toBe(
      'Task t-aaaaaa "make test" was cancelled: killed by SIGTERM, after 2s (cancelled by request).',
    );
  });

  it('keeps the outcome in view when the command is long: the note typed into a prompt has room for it', () => {
    const command = `npm run build -- ${'--flag '.repeat(200)}\necho line 2`;
    const body = describeTaskResult(task({ command }));
    const typed = composeWakeText([{ ...MESSAGE, body }], 1, new Map());
    expect(typed).toContain('failed: exit code 3, after 2s.');
    expect(body).toContain('npm run build -- --flag');
    expect(body.split('\n')[0]).not.toContain('echo line 2');
  });

  it("a shell's note quotes one line: the outcome and at most ~200 characters of the output's end, with no spinner frames", () => {
    const spinner = ['⠋', '⠙', '⠹', '⠸', '◐', '◓'].map((frame) => `\r\u001b[2K${frame} Installing packages`).join('');
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i} of a long build log that goes on and on`).join('\n');
    fs.writeFileSync(logPath, `${lines}\n${spinner}\r\u001b[2K\u001b[32madded 12 packages\u001b[0m\r\n`);
    const body = describeTaskResult(task({}));
    const typed = composeWakeText([{ ...MESSAGE, body }], 1, new Map(), 'shell-note');
    expect(typed).not.toMatch(/[\n\r\u2800-\u28ff\u2580-\u25ff]/);
    expect(typed).not.toContain('\u001b');
    expect(typed).not.toContain('Installing packages');
    expect(typed).toContain('failed: exit code 3, after 2s.');
    const quoted = typed.slice(typed.indexOf('after 2s.') + 'after 2s.'.length, typed.indexOf(' — drover inbox'));
    expect(quoted).toMatch(/added 12 packages$/);
    expect(quoted.length).toBeLessThanOrEqual(220);
  });
});
