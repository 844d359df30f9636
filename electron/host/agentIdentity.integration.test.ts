import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../shared/entities/agents';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { Project } from '../../shared/entities/projects';
import type { Task } from '../../shared/entities/tasks';
import type { DroverEvent } from '../../shared/events';
import { agentTerminalEnv } from '../../test-support/agentTerminalEnv';
import { CLI_PATH } from '../../test-support/buildOnce';
import { FAKE_PROFILE } from '../../test-support/fakeAgentProfile';
import { runCli } from '../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { connectToDrover, type SocketClient } from '../cli/socketClient';
import { startHost, type DroverHost } from './host';

/**
 * Every way in for an agent is scoped to the agent: through `drover mcp` and the `drover` command
 * in its terminal, and the socket underneath them, project A's agent cannot read, cancel, retry or
 * answer project B's work, nor pose as another agent. The person's own callers stay unrestricted.
 */
describe('agent identity: each agent acts only as itself, in its own project', () => {
  let dir: string;
  let host: DroverHost;
  let projectA: Project;
  let projectB: Project;
  let alice: Agent;
  let bob: Agent;
  let carol: Agent;
  let secretTask: Task;
  let privateNote: InboxMessage;
  let question: InboxMessage;
  const clients: Client[] = [];
  const sockets: SocketClient[] = [];

  const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? []).map((part) => part.text).join('\n');
  const addProject = (name: string) => {
    fs.mkdirSync(path.join(dir, name));
    return host.core.api.addProject({ path: path.join(dir, name) });
  };
  const startAgent = async (projectId: string, name: string) => {
    const agent = await host.core.api.createAgent({ projectId, name, role: '', profileId: 'fake' });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await host.core.api.getWorkState({ projectId })).sessions.find((s) => s.agentId === agent.id)?.state === 'ready', `${name} ready`);
    return agent;
  };
  const terminalEnv = (agent: Agent) => agentTerminalEnv(host, agent);
  const mcp = async (env: Record<string, string>) => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp'], cwd: dir, env, stderr: 'ignore' }));
    clients.push(client);
    return client;
  };
  const mcpOf = async (agent: Agent) => mcp(await terminalEnv(agent));
  const socket = async (events?: DroverEvent[]) => {
    const client = await connectToDrover(host.socketPath, events ? { onEvent: (event) => events.push(event) } : {});
    sockets.push(client);
    return client;
  };

  beforeEach(async () => {
    dir = makeTempDir();
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', cliCommand: [process.execPath, CLI_PATH], agentStopGraceMs: 500 });
    await host.core.api.saveAgentProfile({ profile: { ...FAKE_PROFILE, integration: 'none' } });
    projectA = await addProject('a');
    projectB = await addProject('b');
    alice = await startAgent(projectA.id, 'Alice');
    bob = await startAgent(projectB.id, 'Bob');
    carol = await startAgent(projectB.id, 'Carol');
    await host.core.api.holdAgentWakes({ agentId: bob.id, hold: true });
    secretTask = await host.core.api.createTask({ projectId: projectB.id, command: 'echo B_SECRET_TOKEN=hunter2; sleep 30', ownerAgentId: bob.id });
    await waitFor(async () => (await host.core.api.readTaskOutput({ taskId: secretTask.id })).data.includes('hunter2'), 'the secret printed');
    privateNote = await host.core.api.sendMessage({ projectId: projectB.id, to: bob.id, kind: 'note', body: 'the staging password is swordfish' });
    question = await host.core.api.sendMessage({ projectId: projectB.id, to: bob.id, kind: 'question', body: 'Ready to deploy?', fromAgentId: carol.id });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
    sockets.splice(0).forEach((client) => client.close());
    await host.close();
    removeDir(dir);
  });

  it("through drover mcp, project A's agent cannot read, cancel, retry or answer project B's work", async () => {
    const tools = await mcpOf(alice);
    const got = await tools.callTool({ name: 'get_task', arguments: { task_id: secretTask.id } });
    expect(got).toMatchObject({ isError: true });
    expect(text(got)).not.toContain('hunter2');
    expect(text(got)).toMatch(/another project/);
    expect(await tools.callTool({ name: 'cancel_task', arguments: { task_id: secretTask.id } })).toMatchObject({ isError: true });
    expect((await host.core.api.getTask({ taskId: secretTask.id })).state).toBe('running');
    await host.core.api.cancelTask({ taskId: secretTask.id });
    await waitFor(async () => (await host.core.api.getTask({ taskId: secretTask.id })).state === 'cancelled', 'the person cancelled it');
    expect(await tools.callTool({ name: 'retry_task', arguments: { task_id: secretTask.id } })).toMatchObject({ isError: true });
    expect((await host.core.api.listTasks({ projectId: projectB.id })).tasks).toHaveLength(1);
    expect(text(await tools.callTool({ name: 'list_tasks', arguments: {} }))).toBe('No tasks.');

    const answered = await tools.callTool({ name: 'reply', arguments: { question_id: question.id, body: 'yes, deploy' } });
    expect(answered).toMatchObject({ isError: true });
    // Bob, whom it was asked, still answers it.
    const bobsTools = await mcpOf(bob);
    expect(text(await bobsTools.callTool({ name: 'reply', arguments: { question_id: question.id, body: 'not yet' } }))).toMatch(/^Replied/);
    expect((await host.core.api.listInbox({ agentId: carol.id, unreadOnly: false })).messages.map((m) => m.body)).toEqual(['not yet']);
  });

  it('answers a question only from the agent it was asked of, even in the same project', async () => {
    const carolsTools = await mcpOf(carol);
    const answered = await carolsTools.callTool({ name: 'reply', arguments: { question_id: question.id, body: 'I answer for Bob' } });
    expect(answered).toMatchObject({ isError: true });
    expect(text(answered)).toMatch(/asked of Bob/);
    expect((await host.core.api.listInbox({ agentId: carol.id, unreadOnly: false })).messages).toEqual([]);
  });

  it('never lets an agent pose as another: a forged DROVER_AGENT_ID, or none of the proof, is refused', async () => {
    const forged = { ...(await terminalEnv(alice)), DROVER_AGENT_ID: bob.id, DROVER_PROJECT_ID: projectB.id };
    await expect(mcp(forged)).rejects.toThrow();
    const withoutProof = Object.fromEntries(Object.entries(await terminalEnv(bob)).filter(([key]) => key !== 'DROVER_AGENT_PROOF'));
    await expect(mcp(withoutProof)).rejects.toThrow();
    const cli = await runCli(['task', 'run', '--', 'true'], { cwd: path.join(dir, 'a'), env: { ...process.env, ...forged } });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/not the proof of Bob's running session/);
    // Bob's own tools read Bob's inbox; nobody else's did.
    expect(text(await (await mcpOf(bob)).callTool({ name: 'read_inbox', arguments: {} }))).toContain('swordfish');
    expect((await host.core.api.listInbox({ agentId: bob.id, unreadOnly: false })).messages.find((m) => m.id === privateNote.id)?.state).toBe('read');
  });

  it('on the socket, an identified agent is held to its own project and its own inbox; people are not', async () => {
    const events: DroverEvent[] = [];
    const agentSide = await socket(events);
    const proof = (await terminalEnv(alice)).DROVER_AGENT_PROOF as string;
    await expect(agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: 'f'.repeat(64) })).rejects.toMatchObject({ code: 'forbidden' });
    const identity = await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof });
    expect(identity).toMatchObject({ agentId: alice.id, project: { id: projectA.id } });
    await expect(agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof })).rejects.toMatchObject({ code: 'forbidden' });

    const refused = (call: Promise<unknown>) => expect(call).rejects.toMatchObject({ code: 'forbidden' });
    await refused(agentSide.rpc.call('getTask', { taskId: secretTask.id }));
    await refused(agentSide.rpc.call('readTaskOutput', { taskId: secretTask.id }));
    await refused(agentSide.rpc.call('listInbox', { agentId: bob.id }));
    await refused(agentSide.rpc.call('getWorkState', { projectId: projectB.id }));
    await refused(agentSide.rpc.call('writeAgentInput', { agentId: alice.id, data: 'x' }));
    await refused(agentSide.rpc.call('updateProjectSettings', { projectId: projectA.id, settings: { taskConcurrency: 9 } }));
    await refused(agentSide.rpc.call('sendMessage', { projectId: projectA.id, to: 'Alice', kind: 'note', body: 'from a person, honest' }));
    await refused(agentSide.rpc.call('createTask', { projectId: projectA.id, command: 'true', ownerAgentId: bob.id }));
    expect((await agentSide.rpc.call('listProjects', {})).projects.map((p) => p.id)).toEqual([projectA.id]);

    const person = await socket();
    expect((await person.rpc.call('getTask', { taskId: secretTask.id })).id).toBe(secretTask.id);
    expect((await person.rpc.call('listProjects', {})).projects).toHaveLength(2);

    // Only its own project's events reach the agent's connection.
    await host.core.api.sendMessage({ projectId: projectB.id, to: bob.id, kind: 'note', body: 'another secret' });
    await host.core.api.sendMessage({ projectId: projectA.id, to: alice.id, kind: 'note', body: 'for alice' });
    await waitFor(() => events.some((event) => event.name === 'agentInboxChanged' && event.message.body === 'for alice'), "Alice's note announced");
    expect(events.filter((event) => 'projectId' in event && event.projectId !== projectA.id)).toEqual([]);
  });
  it("ends a connection's identity with the session it proved: refused, told nothing, until it proves a running session again", async () => {
    const events: DroverEvent[] = [];
    const agentSide = await socket(events);
    const firstProof = (await terminalEnv(alice)).DROVER_AGENT_PROOF as string;
    await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: firstProof });
    expect((await agentSide.rpc.call('listInbox', { agentId: alice.id })).messages).toEqual([]);

    await host.core.api.stopAgent({ agentId: alice.id });
    const ended = { code: 'forbidden', message: expect.stringMatching(/^This connection spoke for Alice, and Alice's session ended: it speaks for nobody now\. Identify again with the proof of a running session\.$/) };
    await expect(agentSide.rpc.call('listInbox', { agentId: alice.id })).rejects.toMatchObject(ended);
    await expect(agentSide.rpc.call('createTask', { projectId: projectA.id, command: 'true' })).rejects.toMatchObject(ended);
    // Pushes and replies keep their order on the socket: an event sent before this reply would be here by now.
    const eventsBefore = events.length;
    await host.core.api.sendMessage({ projectId: projectA.id, to: 'Alice', kind: 'note', body: 'after the session' });
    await expect(agentSide.rpc.call('getWorkState', { projectId: projectA.id })).rejects.toMatchObject(ended);
    expect(events.slice(eventsBefore)).toEqual([]);

    // The ended session's proof proves nothing; the next session's does.
    await expect(agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: firstProof })).rejects.toMatchObject({ code: 'forbidden' });
    await host.core.api.startAgent({ agentId: alice.id, resume: false });
    await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: (await terminalEnv(alice)).DROVER_AGENT_PROOF as string });
    expect((await agentSide.rpc.call('listInbox', { agentId: alice.id })).messages.map((message) => message.body)).toEqual(['after the session']);

    // A removed agent's connection speaks for nobody either.
    const carolSide = await socket();
    await carolSide.rpc.call('identifyAgent', { agentId: carol.id, proof: (await terminalEnv(carol)).DROVER_AGENT_PROOF as string });
    await host.core.api.removeAgent({ agentId: carol.id });
    await expect(carolSide.rpc.call('listTasks', { projectId: projectB.id })).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('Carol was removed: it speaks for nobody now') });
  });

  describe('what it set up while its identity held ends with it too', () => {
    const ended = { code: 'forbidden', message: expect.stringContaining("Alice's session ended: it speaks for nobody now") };
    const proofOf = async (agent: Agent) => (await terminalEnv(agent)).DROVER_AGENT_PROOF as string;

    it('the output of a task it watched stops reaching it', async () => {
      const heard: string[] = [];
      const agentSide = await connectToDrover(host.socketPath, { onOutput: (chunk) => heard.push(Buffer.from(chunk.data).toString('utf8')) });
      sockets.push(agentSide);
      await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: await proofOf(alice) });
      const task = await agentSide.rpc.call('createTask', { projectId: projectA.id, command: 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); echo tick $i; sleep 0.05; done' });
      await agentSide.rpc.call('watchTaskOutput', { taskId: task.id });
      await waitFor(() => heard.join('').includes('tick 3'), 'the output reaching it while its session runs');
      const lastTick = async () => Math.max(0, ...[...(await host.core.api.readTaskOutput({ taskId: task.id, tailBytes: 4096 })).data.matchAll(/tick (\d+)/g)].map((m) => Number(m[1])));

      await host.core.api.stopAgent({ agentId: alice.id });
      const atEnd = await lastTick();
      // Output from before the end may still have been on its way; from here on nothing is.
      await waitFor(async () => (await lastTick()) > atEnd + 3, 'the task to go on printing');
      const heardBefore = heard.length;
      await waitFor(async () => (await lastTick()) > atEnd + 10, 'the task to print more');
      // Pushes and replies keep their order on the socket: output sent before this reply would be here by now.
      await expect(agentSide.rpc.call('getTask', { taskId: task.id })).rejects.toMatchObject(ended);
      expect(heard.slice(heardBefore)).toEqual([]);
      await host.core.api.cancelTask({ taskId: task.id });
    });

    it("a wait for a reply it began does not take a reply that comes after: the reply stays pending for the agent's next session", async () => {
      const dave = await host.core.api.createAgent({ projectId: projectA.id, name: 'Dave', role: '', profileId: 'fake' });
      const agentSide = await socket();
      await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: await proofOf(alice) });
      const asked = await agentSide.rpc.call('sendMessage', { projectId: projectA.id, to: 'Dave', kind: 'question', body: 'Ready to ship?', fromAgentId: alice.id });
      const waiting = agentSide.rpc.call('awaitReply', { questionId: asked.id, timeoutMs: 3_600_000 });
      // Requests are taken in order: the wait is registered once this answers.
      await agentSide.rpc.call('listInbox', { agentId: alice.id });

      await host.core.api.stopAgent({ agentId: alice.id });
      const reply = await host.core.api.replyToMessage({ questionId: asked.id, body: 'ship it', fromAgentId: dave.id });
      await expect(waiting).rejects.toMatchObject(ended);
      expect((await host.core.api.listInbox({ agentId: alice.id, unreadOnly: false })).messages.find((message) => message.id === reply.id)?.state).toBe('pending');
    });

    it("its wake channel takes no wake of the agent's next session: that session's wake is typed", async () => {
      const agentSide = await socket();
      await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: await proofOf(alice) });
      const polling = agentSide.rpc.call('awaitChannelWake', { timeoutMs: 600_000 });
      polling.catch(() => undefined);
      await agentSide.rpc.call('listInbox', { agentId: alice.id });

      await host.core.api.stopAgent({ agentId: alice.id });
      await host.core.api.startAgent({ agentId: alice.id, resume: false });
      await waitFor(async () => (await host.core.api.getWorkState({ projectId: projectA.id })).sessions.find((s) => s.agentId === alice.id)?.state === 'ready', 'Alice ready again');
      const note = await host.core.api.sendMessage({ projectId: projectA.id, to: 'Alice', kind: 'note', body: 'for the new session' });
      await waitFor(async () => (await host.core.api.listInbox({ agentId: alice.id, unreadOnly: false })).messages.find((message) => message.id === note.id)?.state === 'delivered', 'the note typed into the new session');
      expect((await host.core.api.readAgentScreen({ agentId: alice.id })).text).toContain('for the new session');
    });

    it('speaks for the session whose proof it gave, even when an ended session of the agent looks newer (a clock set back)', async () => {
      await host.core.api.stopAgent({ agentId: alice.id });
      const before = (await host.core.api.getWorkState({ projectId: projectA.id })).sessions.find((s) => s.agentId === alice.id);
      await host.core.api.startAgent({ agentId: alice.id, resume: false });
      const proof = await proofOf(alice);
      const db = new Database(path.join(dir, 'data', 'projects', projectA.id, 'state.sqlite'));
      db.prepare('UPDATE agent_sessions SET started_at = ? WHERE id = ?').run(Date.now() + 86_400_000, before?.id);
      db.close();

      const agentSide = await socket();
      await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof });
      expect((await agentSide.rpc.call('listInbox', { agentId: alice.id })).messages).toEqual([]);
    });

    it('counts a session whose record is gone as ended', async () => {
      const agentSide = await socket();
      await agentSide.rpc.call('identifyAgent', { agentId: alice.id, proof: await proofOf(alice) });
      const session = (await host.core.api.getWorkState({ projectId: projectA.id })).sessions.find((s) => s.agentId === alice.id);
      const db = new Database(path.join(dir, 'data', 'projects', projectA.id, 'state.sqlite'));
      db.prepare('DELETE FROM agent_sessions WHERE id = ?').run(session?.id);
      db.close();
      await expect(agentSide.rpc.call('listInbox', { agentId: alice.id })).rejects.toMatchObject(ended);
    });
  });
});
