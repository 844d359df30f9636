import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../shared/entities/projects';
import type { ResponseFrame } from '../../shared/protocol';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { startHost, type Connection, type DroverHost } from './host';

describe('request limits at the contract', () => {
  let dir: string;
  let host: DroverHost;
  let connection: Connection;
  let project: Project;
  let nextId = 1;

  const createTask = (params: Record<string, unknown>): Promise<ResponseFrame> =>
    connection.handle({ t: 'req', id: nextId++, method: 'createTask', params: { projectId: project.id, ...params } });
  const refusal = async (reply: Promise<ResponseFrame>) => {
    const frame = await reply;
    return frame.ok ? 'accepted' : `${frame.error.code}: ${frame.error.message}`;
  };

  beforeEach(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', settingsDefaults: { taskConcurrency: 1 } });
    project = await host.core.api.addProject({ path: path.join(dir, 'repo') });
    await host.core.api.createTask({ projectId: project.id, command: 'sleep 30' });
    connection = host.openConnection(() => undefined);
  });
  afterEach(async () => {
    connection.close();
    await host.close();
    removeDir(dir);
  });

  it('refuses a command the shell would not run as stored: a NUL, or a lone surrogate', async () => {
    expect(await refusal(createTask({ command: 'echo safe\u0000; rm -rf ~' }))).toBe(
      'bad-request: Invalid createTask params: command: contains a NUL character, which a command or path cannot hold',
    );
    expect(await refusal(createTask({ command: 'echo \ud800' }))).toBe('bad-request: Invalid createTask params: command: is not valid Unicode text (it holds a lone surrogate)');
    expect(await refusal(createTask({ command: 'echo ok', cwd: 'src\u0000' }))).toMatch(/cwd: contains a NUL character/);
    expect(await refusal(createTask({ command: 'echo 🐑 ünïcode' }))).toBe('accepted');
    const { tasks } = await host.core.api.listTasks({ projectId: project.id });
    expect(tasks.map((task) => task.command)).toEqual(['echo 🐑 ünïcode', 'sleep 30']);
  });

  it('refuses commands and labels over their limits, saying the limit', async () => {
    expect(await refusal(createTask({ command: 'x'.repeat(100_001) }))).toBe('bad-request: Invalid createTask params: command: is longer than 100000 characters');
    expect(await refusal(createTask({ command: 'true', label: 'l'.repeat(201) }))).toBe('bad-request: Invalid createTask params: label: is longer than 200 characters');
    expect(await refusal(createTask({ command: 'x'.repeat(100_000), label: 'l'.repeat(200) }))).toBe('accepted');
  });
});
