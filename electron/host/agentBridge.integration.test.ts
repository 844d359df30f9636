import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DROVER_TOOL_NAMES } from '../../shared/droverTools';
import type { Agent } from '../../shared/entities/agents';
import type { Project } from '../../shared/entities/projects';
import { agentTerminalEnv } from '../../test-support/agentTerminalEnv';
import { attachTerminal } from '../../test-support/attachedTerminal';
import { CLI_PATH } from '../../test-support/buildOnce';
import { FAKE_PROFILE } from '../../test-support/fakeAgentProfile';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { connectToDrover } from '../cli/socketClient';
import { readScreen, showsEmptyPrompt } from '../core/sessions/stateDetector';
import { startHost, type DroverHost } from './host';

const PROFILE = { ...FAKE_PROFILE, env: { FAKE_AGENT_WORK_MS: '300' }, usageLimitPattern: 'hit your session limit' };

describe('agent bridge: inbox, wakes and the MCP server', () => {
  let dir: string;
  let host: DroverHost;
  let project: Project;
  const clients: Client[] = [];
  const hostLog: string[] = [];

  const boot = async () => {
    host = await startHost({
      dataDir: path.join(dir, 'data'),
      version: 'test',
      cliCommand: [process.execPath, CLI_PATH],
      agentStopGraceMs: 500,
      log: (line) => hostLog.push(line),
    });
  };
  const state = () => host.core.api.getWorkState({ projectId: project.id });
  const session = async (agentId: string) => (await state()).sessions.find((s) => s.agentId === agentId);
  const inbox = async (agentId: string) => (await state()).messages.filter((m) => m.agentId === agentId);
  const addAgent = (name: string) => host.core.api.createAgent({ projectId: project.id, name, role: '', profileId: 'fake' });
  const screenOf = async (agentId: string) => {
    const seen = { text: '' };
    await attachTerminal(host.core.api, agentId, { snapshot: (text) => (seen.text = text), chunk: (data) => (seen.text += data) });
    return seen;
  };
  /** Where Drover may type into the agent: ready, asking nothing, its visible screen at the empty prompt. */
  const atEmptyPrompt = async (agentId: string) => {
    const now = await session(agentId);
    if (now?.state !== 'ready' || now.needsInput) return false;
    const { text, rows } = await host.core.api.readAgentScreen({ agentId });
    return showsEmptyPrompt(readScreen(text.split('\n').slice(-rows).join('\n'), PROFILE));
  };
  const startReady = async (agent: Agent) => {
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', `${agent.name} ready`);
  };
  /** The MCP server as the agent's CLI starts it: in the env of the agent's running terminal. */
  const mcpFor = async (agent: Agent) => {
    if ((await session(agent.id))?.state !== 'ready') await startReady(agent);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp'], env: await agentTerminalEnv(host, agent), stderr: 'ignore' }));
    clients.push(client);
    return client;
  };
  const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? []).map((part) => part.text).join('\n');

  beforeEach(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
    await boot();
    project = (await host.core.api.addProject({ path: path.join(dir, 'repo') }));
    await host.core.api.saveAgentProfile({ profile: PROFILE });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await host.close();
    removeDir(dir);
  });

  it("a person's seeing a message is theirs: it leaves the agent's read and the wake alone, once, and refuses a message of another agent in words", async () => {
    const [builder, other] = [await addAgent('Builder'), await addAgent('Other')];
    const note = await host.core.api.sendMessage({ projectId: project.id, to: 'Builder', kind: 'note', body: 'look at this', fromAgentId: other.id });
    const elsewhere = await host.core.api.sendMessage({ projectId: project.id, to: 'Other', kind: 'note', body: 'not for Builder', fromAgentId: builder.id });
    const [seen] = await host.core.api.markInboxSeen({ agentId: builder.id, messageIds: [note.id] });
    expect(seen).toMatchObject({ id: note.id, state: 'pending', readAt: null });
    expect(seen?.seenAt).toEqual(expect.any(Number));
    expect(await host.core.api.markInboxSeen({ agentId: builder.id, messageIds: [note.id] })).toEqual([]);
    await expect(host.core.api.markInboxSeen({ agentId: builder.id, messageIds: [elsewhere.id] })).rejects.toThrow(`No message ${elsewhere.id} in this agent's inbox.`);
    expect((await inbox(other.id))[0]?.seenAt).toBeNull();
    expect((await host.core.api.listInbox({ agentId: builder.id, unreadOnly: true })).messages.map((m) => m.id)).toEqual([note.id]);
  });

  it("a person's own note or question is never new to them; an agent's is, until seen", async () => {
    const [builder, other] = [await addAgent('Builder'), await addAgent('Other')];
    const own = await host.core.api.sendMessage({ projectId: project.id, to: 'Builder', kind: 'note', body: 'from the person' });
    const asked = await host.core.api.sendMessage({ projectId: project.id, to: 'Builder', kind: 'question', body: 'which branch?' });
    const fromAgent = await host.core.api.sendMessage({ projectId: project.id, to: 'Builder', kind: 'note', body: 'from Other', fromAgentId: other.id });
    expect(own.seenAt).toBe(own.createdAt);
    expect(asked.seenAt).toBe(asked.createdAt);
    expect(fromAgent.seenAt).toBeNull();
    // Seen is the person's word only: the agent still gets all three, unread.
    expect((await inbox(builder.id)).map((m) => [m.id, m.state])).toEqual([own, asked, fromAgent].map((m) => [m.id, 'pending']));
  });

  it('posts exactly one task-result to the owner (by id or by name), with exit code, duration and output tail', async () => {
    const agent = await addAgent('Builder');
    const byId = (await host.core.api.createTask({ projectId: project.id, command: 'echo compiled 12 files; exit 3', ownerAgentId: agent.id }));
    const byName = (await host.core.api.createTask({ projectId: project.id, command: 'echo fine', ownerAgentId: 'Builder', label: 'lint' }));
    await expect(host.core.api.createTask({ projectId: project.id, command: 'true', ownerAgentId: 'Nobody' })).rejects.toThrow(/No agent Nobody in this project \(agents: Builder\)/);
    expect(byName.ownerAgentId).toBe(agent.id);
    await waitFor(async () => (await inbox(agent.id)).length === 2, 'two results');
    const failed = (await inbox(agent.id)).find((m) => m.taskId === byId.id);
    expect(failed).toMatchObject({ kind: 'task-result', state: 'pending' });
    expect(failed?.body).toMatch(new RegExp(`Task ${byId.id} .* failed: exit code 3, after \\d+s\\.`));
    expect(failed?.body.match(/exit code 3/g)).toHaveLength(1);
    expect(failed?.body).toContain('compiled 12 files');
    expect((await inbox(agent.id)).find((m) => m.taskId === byName.id)?.body).toMatch(/"lint" \(echo fine\) succeeded: exit code 0/);
    await host.core.api.retryTask({ taskId: byId.id });
    await waitFor(async () => (await inbox(agent.id)).length === 3, 'the retry posts its own result');
    expect((await state()).messages).toHaveLength(3);
  });

  it('wakes a ready agent by typing its messages, never while it is busy, and holds on request', async () => {
    const agent = await addAgent('Sleeper');
    await startReady(agent);
    const screen = await screenOf(agent.id);
    await host.core.api.writeAgentInput({ agentId: agent.id, data: 'long job\r' });
    await waitFor(async () => (await session(agent.id))?.state === 'busy', 'busy');
    await host.core.api.sendMessage({ projectId: project.id, to: 'Sleeper', kind: 'note', body: 'the build is green' });
    expect((await inbox(agent.id))[0]?.state).toBe('pending');
    expect(screen.text).not.toContain('[Drover]');
    await waitFor(async () => (await inbox(agent.id))[0]?.state === 'delivered', 'delivered once ready');
    await waitFor(() => /\[Drover\] New message: Note from a person: the build is green/.test(screen.text), 'the wake on screen');
    await waitFor(() => screen.text.includes('Done: [Drover]'), 'the agent took it as its prompt');
    expect((await state()).wakes.find((w) => w.agentId === agent.id)).toMatchObject({ state: 'delivered', attempts: 1 });

    // Drover types only once the prompt is drawn again (the Stop hook comes before it).
    await waitFor(() => atEmptyPrompt(agent.id), 'at its prompt again');
    await host.core.api.holdAgentWakes({ agentId: agent.id, hold: true });
    await host.core.api.sendMessage({ projectId: project.id, to: agent.id, kind: 'note', body: 'held note' });
    expect((await inbox(agent.id)).find((m) => m.body === 'held note')?.state).toBe('pending');
    await expect(host.core.api.wakeAgent({ agentId: agent.id })).resolves.toEqual({ agentId: agent.id, delivered: 1 });
    await waitFor(() => screen.text.includes('held note'), 'the held note typed');
  });

  it('delivers a wake through the channel of an agent whose CLI takes channel events, typing nothing; an agent whose CLI does not gets it typed', async () => {
    const channelProfile = { ...FAKE_PROFILE, id: 'fake-channels', name: 'Fake agent with channels', args: [...FAKE_PROFILE.args, '--channels'], env: { FAKE_AGENT_WORK_MS: '300' } };
    await host.core.api.saveAgentProfile({ profile: channelProfile });
    const listener = await host.core.api.createAgent({ projectId: project.id, name: 'Listener', role: '', profileId: 'fake-channels' });
    const typist = await addAgent('Typist');
    await startReady(listener);
    // The typist's MCP server runs too, for a client that declared no channel capability.
    const typistMcp = await mcpFor(typist);
    expect(typistMcp.getServerCapabilities()?.experimental).toEqual({ 'claude/channel': {} });
    await waitFor(() => hostLog.some((line) => line.startsWith(`wake channel of Listener (${listener.id}) open`)), "the listener's wake channel open");
    expect(hostLog.some((line) => line.startsWith('wake channel of Typist'))).toBe(false);
    const listenerScreen = await screenOf(listener.id);
    const typistScreen = await screenOf(typist.id);

    await host.core.api.sendMessage({ projectId: project.id, to: 'Listener', kind: 'note', body: 'through the channel' });
    await host.core.api.sendMessage({ projectId: project.id, to: 'Typist', kind: 'note', body: 'typed in' });
    await waitFor(() => listenerScreen.text.includes('Done: [Drover] New message: Note from a person: through the channel'), 'the listener took the wake as a turn');
    expect(listenerScreen.text).toContain('channel drover: [Drover] New message: Note from a person: through the channel');
    expect(listenerScreen.text).not.toContain('fake> [Drover]');
    await waitFor(() => typistScreen.text.includes('Done: [Drover] New message: Note from a person: typed in'), 'the typist took the wake as its prompt');
    expect(typistScreen.text).toContain('fake> [Drover] New message: Note from a person: typed in');
    expect(typistScreen.text).not.toContain('channel drover:');
    for (const agent of [listener, typist]) {
      expect((await state()).wakes.find((w) => w.agentId === agent.id)).toMatchObject({ state: 'delivered', attempts: 1, lastError: null });
      expect((await inbox(agent.id)).map((m) => m.state)).toEqual(['delivered']);
    }
  });

  it('refuses a wake channel to a connection that speaks for the person', async () => {
    const person = await connectToDrover(host.socketPath);
    try {
      await expect(person.rpc.call('awaitChannelWake', { timeoutMs: 10 })).rejects.toThrow(/only its MCP server \(identified as the agent\) opens one/);
      await expect(person.rpc.call('reportChannelWake', { deliveryId: 'd-1', sent: true })).rejects.toThrow(/belongs to an agent/);
    } finally {
      person.close();
    }
  });

  it('wakes a plain shell with a note it shows and never runs', async () => {
    await host.core.api.saveAgentProfile({
      profile: { id: 'sh', name: 'sh', command: '/bin/sh', args: [], env: { PS1: 'sh$ ' }, promptPattern: 'sh\\$ ?$', busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 200, integration: 'none', wakeAs: 'shell-note' },
    });
    const shell = (await host.core.api.createAgent({ projectId: project.id, name: 'Terminal', role: '', profileId: 'sh' }));
    await startReady(shell);
    const screen = await screenOf(shell.id);
    await host.core.api.sendMessage({ projectId: project.id, to: 'Terminal', kind: 'note', body: "deploy's done; $(touch pwned)" });
    await waitFor(async () => (await inbox(shell.id))[0]?.state === 'delivered', 'delivered');
    await waitFor(() => /sh\$ true '\[Drover\] New message: Note from a person: deploy’s done; \$\(touch pwned\)[^\n]*\r?\nsh\$/.test(screen.text), 'the note shown and the prompt back');
    expect(fs.existsSync(path.join(dir, 'repo', 'pwned'))).toBe(false);
  });

  it('never types into an agent that is not running, and says why when woken by hand', async () => {
    const agent = await addAgent('Offline');
    await host.core.api.sendMessage({ projectId: project.id, to: 'Offline', kind: 'note', body: 'hello?' });
    expect((await state()).wakes.find((w) => w.agentId === agent.id)?.state).toBe('waiting');
    await expect(host.core.api.wakeAgent({ agentId: agent.id })).rejects.toThrow(/only when its agent is ready/);
    await startReady(agent);
    await waitFor(async () => (await inbox(agent.id))[0]?.state === 'delivered', 'delivered once started and ready');
  });

  it('serves the MCP tools with JSON schemas; run_in_background starts a task owned by the calling agent', async () => {
    const agent = await addAgent('Caller');
    const client = await mcpFor(agent);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...DROVER_TOOL_NAMES].sort());
    expect(tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name)).toEqual(['list_tasks', 'get_task', 'read_inbox']);
    expect(tools.find((t) => t.name === 'run_in_background')?.inputSchema).toMatchObject({ type: 'object', required: ['command'] });
    const started = text(await client.callTool({ name: 'run_in_background', arguments: { command: 'echo from-mcp', label: 'mcp job' } }));
    const taskId = /task (t-[a-z0-9]+)/.exec(started)?.[1] as string;
    expect(await host.core.api.getTask({ taskId })).toMatchObject({ ownerAgentId: agent.id, label: 'mcp job' });
    await waitFor(async () => (await inbox(agent.id)).some((m) => m.taskId === taskId), 'the result in the caller inbox');
    expect(text(await client.callTool({ name: 'get_task', arguments: { task_id: taskId } }))).toContain('from-mcp');
    expect(text(await client.callTool({ name: 'read_inbox', arguments: {} }))).toContain(`Task ${taskId}`);
    expect((await inbox(agent.id)).every((m) => m.state === 'read')).toBe(true);

    const unknown = await client.callTool({ name: 'launch_rockets', arguments: {} }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.MethodNotFound);
    const bad = await client.callTool({ name: 'run_in_background', arguments: { command: 42 } }).catch((error: unknown) => error);
    expect((bad as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((bad as McpError).message).toMatch(/command/);
    const refused = await client.callTool({ name: 'cancel_task', arguments: { task_id: 't-doesnotexist' } });
    expect(refused).toMatchObject({ isError: true });
    expect(text(refused)).toContain('No task with id t-doesnotexist');
  });

  it('ask_agent reaches the other agent through its inbox and a wake, and returns its reply', async () => {
    const asker = await addAgent('Architect');
    const answerer = await addAgent('Backend');
    await startReady(answerer);
    const client = await mcpFor(asker);
    const answer = client.callTool({ name: 'ask_agent', arguments: { to: 'Backend', question: 'What is the answer?', timeout_seconds: 30 } });
    expect(text(await answer)).toBe('Backend says 42');
    const question = (await inbox(answerer.id)).find((m) => m.kind === 'question');
    expect(question).toMatchObject({ fromAgentId: asker.id, state: 'delivered' });
    expect((await inbox(asker.id))).toEqual([expect.objectContaining({ kind: 'reply', replyTo: question?.id, state: 'delivered' })]);
    expect((await state()).wakes.filter((w) => w.agentId === asker.id)).toEqual([]);
  });

  it('keeps a reply pending for a wake when the asker went away before it came', async () => {
    const asker = await addAgent('Asker');
    await addAgent('Slow');
    const question = (await host.core.api.sendMessage({ projectId: project.id, to: 'Slow', kind: 'question', body: 'later?', fromAgentId: asker.id }));
    const client = await connectToDrover(host.socketPath);
    const waiting = client.rpc.call('awaitReply', { questionId: question.id, timeoutMs: 60_000 }).catch(() => 'closed');
    // A connection's frames are handled in order: once a later call is answered, the host holds the wait.
    await client.rpc.call('getStatus', {});
    const observer = await connectToDrover(host.socketPath);
    client.close();
    await expect(waiting).resolves.toBe('closed');
    // The host ends a connection's waits as it counts the connection gone.
    await waitFor(async () => (await observer.rpc.call('getHostStatus', {})).clients === 1, 'the host to see the asker go');
    observer.close();
    await host.core.api.replyToMessage({ questionId: question.id, body: 'now' });
    expect((await inbox(asker.id))).toEqual([expect.objectContaining({ kind: 'reply', state: 'pending' })]);
  });

  it('after a restart: an interrupted task still reports to its owner once, and a cut-off wake waits again', async () => {
    const agent = await addAgent('Owner');
    const task = (await host.core.api.createTask({ projectId: project.id, command: 'sleep 60', ownerAgentId: agent.id }));
    await waitFor(async () => (await host.core.api.getTask({ taskId: task.id })).state === 'running', 'running');
    const dataDir = path.join(dir, 'data');
    const projectDb = path.join(dataDir, 'projects', project.id, 'state.sqlite');
    await host.close();
    // The host died mid-task: its row still says running.
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(projectDb);
    db.prepare("UPDATE tasks SET state = 'running', ended_at = NULL WHERE id = ?").run(task.id);
    db.prepare('DELETE FROM inbox_messages WHERE task_id = ?').run(task.id);
    db.prepare("UPDATE wakes SET state = 'delivering'").run();
    db.close();
    await boot();
    expect((await state()).wakes.filter((w) => w.agentId === agent.id).map((w) => w.state)).toEqual(['waiting']);
    const results = (await inbox(agent.id)).filter((m) => m.taskId === task.id);
    expect(results).toEqual([expect.objectContaining({ kind: 'task-result' })]);
    expect(results[0]?.body).toMatch(/was interrupted/);
    await host.close();
    await boot();
    expect((await inbox(agent.id)).filter((m) => m.taskId === task.id)).toHaveLength(1);
  });

  it('posts at boot a result lost between a task end and its message', async () => {
    const agent = await addAgent('Owner');
    const task = (await host.core.api.createTask({ projectId: project.id, command: 'echo done', ownerAgentId: agent.id }));
    await waitFor(async () => (await inbox(agent.id)).length === 1, 'the result');
    await host.close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path.join(dir, 'data', 'projects', project.id, 'state.sqlite'));
    db.prepare('DELETE FROM inbox_messages WHERE task_id = ?').run(task.id);
    db.close();
    await boot();
    expect((await inbox(agent.id))).toEqual([expect.objectContaining({ kind: 'task-result', taskId: task.id })]);
  });
});
