import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../../shared/entities/projects';
import { CLI_PATH } from '../../../test-support/buildOnce';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { startHost, type DroverHost } from '../../host/host';

/** The env of a terminal that is not a Drover agent's: nothing says where Drover is. */
function plainEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('DROVER_')) env[key] = value;
  return env;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A `drover mcp` spoken to in raw JSON-RPC lines, to send what no well-behaved client would. */
function rawMcp(args: string[], options: { cwd: string; env: Record<string, string> }) {
  const child = spawn(process.execPath, [CLI_PATH, ...args, 'mcp'], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const replies: { id?: unknown; result?: unknown; error?: { message: string } }[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => replies.push(JSON.parse(line) as (typeof replies)[number]));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const initialize = async () => {
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await waitFor(() => replies.find((reply) => reply.id === 1), 'the initialize reply');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  return { child, replies, send, exited, initialize };
}

describe('drover mcp', () => {
  let dir: string;
  let dataDir: string;
  let repo: string;
  let host: DroverHost | undefined;
  let project: Project;
  const children: ChildProcess[] = [];
  const clients: Client[] = [];

  const boot = async () => {
    host = await startHost({ dataDir, version: 'test', cliCommand: [process.execPath, CLI_PATH] });
    return host;
  };
  const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? []).map((part) => part.text).join('\n');
  const client = async (args: string[], env: Record<string, string>) => {
    const mcp = new Client({ name: 'test', version: '1.0.0' });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, ...args, 'mcp'], cwd: path.join(repo, 'src'), env, stderr: 'ignore' }));
    clients.push(mcp);
    return mcp;
  };

  beforeEach(async () => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    repo = path.join(dir, 'repo');
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    project = await (await boot()).core.api.addProject({ path: repo });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await host?.close();
    removeDir(dir);
  });

  it('finds Drover by --data-dir and its project from the folder it runs in, like every command', async () => {
    const mcp = await client(['--data-dir', dataDir], plainEnv());
    const started = text(await mcp.callTool({ name: 'run_in_background', arguments: { command: 'printf "one\\ntwo\\n"' } }));
    const taskId = /task (t-[a-z0-9]+)/.exec(started)?.[1] as string;
    const task = await waitFor(async () => {
      const current = await host?.core.api.getTask({ taskId });
      return current?.state === 'succeeded' && current;
    }, 'the task to run');
    expect(task).toMatchObject({ projectId: project.id, cwd: repo, ownerAgentId: null });
    // The output tail comes with LF line ends, not the terminal's CRLF.
    expect(text(await mcp.callTool({ name: 'get_task', arguments: { task_id: taskId } }))).toMatch(/--- output tail ---\none\ntwo\n$/);
  });

  it('keeps its tools working when Drover restarts under it', async () => {
    const mcp = await client(['--data-dir', dataDir], plainEnv());
    expect(text(await mcp.callTool({ name: 'list_tasks', arguments: {} }))).toBe('No tasks.');
    await host?.close();
    await boot();
    await host?.core.api.createTask({ projectId: project.id, command: 'true', label: 'after-restart' });
    expect(text(await mcp.callTool({ name: 'list_tasks', arguments: {} }))).toContain('after-restart: true');
  });

  it('exits when its stdin ends (the client closed it)', async () => {
    const raw = rawMcp(['--data-dir', dataDir], { cwd: repo, env: plainEnv() });
    children.push(raw.child);
    await raw.initialize();
    raw.child.stdin.end();
    await expect(raw.exited).resolves.toBe(0);
  });

  it('exits when the client that started it dies, even while something else holds its stdin', async () => {
    // The shell stands in for an agent CLI; the test keeps the pipe to stdin open.
    const shell = spawn('/bin/sh', ['-c', `"${process.execPath}" "${CLI_PATH}" mcp & echo $!; wait`], {
      cwd: repo,
      env: { ...plainEnv(), DROVER_SOCKET: host?.socketPath ?? '', DROVER_PROJECT_ID: project.id },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    children.push(shell);
    const pid = Number(await new Promise<string>((resolve) => readline.createInterface({ input: shell.stdout }).once('line', resolve)));
    await waitFor(() => host?.core && isAlive(pid), 'drover mcp to run');
    shell.kill('SIGKILL');
    await waitFor(() => !isAlive(pid), 'drover mcp to exit after its client died');
    shell.stdin.end();
  });

  it('answers an oversized line with a JSON-RPC error and keeps serving', async () => {
    const raw = rawMcp(['--data-dir', dataDir], { cwd: repo, env: plainEnv() });
    children.push(raw.child);
    await raw.initialize();
    raw.child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"pad":"${'x'.repeat(20 * 1024 * 1024)}"}}\n`);
    raw.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const refusal = await waitFor(() => raw.replies.find((reply) => reply.error?.message.startsWith('Message too large')), 'the refusal');
    expect(refusal).toMatchObject({ id: null });
    const tools = await waitFor(() => raw.replies.find((reply) => reply.id === 3), 'the next request answered');
    expect(tools.result).toMatchObject({ tools: expect.arrayContaining([expect.objectContaining({ name: 'run_in_background' })]) });
    expect(raw.child.exitCode).toBeNull();
  });
});
