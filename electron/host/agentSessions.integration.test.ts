import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../shared/entities/projects';
import type { DroverEvent } from '../../shared/events';
import { terminalSizeNote } from '../../shared/terminalSizeNote';
import type { Client } from '../core/api';
import { attachTerminal } from '../../test-support/attachedTerminal';
import { CLI_PATH, REPO_ROOT } from '../../test-support/buildOnce';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { startHost, type DroverHost } from './host';

const FAKE_AGENT = path.join(REPO_ROOT, 'e2e', 'fixtures', 'fake-agent.mjs');

describe('agent sessions (real PTYs, the fake agent fixture)', () => {
  let dir: string;
  let host: DroverHost;
  let project: Project;
  let events: DroverEvent[];
  let screen: string;

  const boot = async () => {
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', cliCommand: [process.execPath, CLI_PATH], agentStopGraceMs: 500 });
    host.core.events.onEvent((event) => events.push(event));
  };
  const session = async (agentId: string) => (await host.core.api.getWorkState({ projectId: project.id })).sessions.find((s) => s.agentId === agentId);
  const states = (agentId: string) =>
    events.flatMap((e) => (e.name === 'agentSessionChanged' && e.session.agentId === agentId ? [e.session.state] : []));
  const saveFakeProfile = (integration: 'claude' | 'none', id = 'fake') =>
    host.core.api.saveAgentProfile({
      profile: {
        id,
        name: 'Fake agent',
        command: process.execPath,
        args: [FAKE_AGENT],
        env: { FAKE_AGENT_WORK_MS: '600' },
        promptPattern: '^fake> ?$',
        busyPattern: 'esc to interrupt',
        needsInputPattern: null,
        usageLimitPattern: 'hit your session limit',
        quietMs: 150,
        integration,
        wakeAs: 'prompt',
      },
    });
  const saveShellProfile = () =>
    host.core.api.saveAgentProfile({
      profile: { id: 'sh', name: 'sh', command: '/bin/sh', args: [], env: { PS1: 'sh$ ' }, promptPattern: 'sh\\$ ?$', busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 200, integration: 'none', wakeAs: 'shell-note' },
    });
  const attach = (agentId: string) =>
    attachTerminal(host.core.api, agentId, {
      snapshot: (text) => (screen = text),
      chunk: (data) => (screen += data),
    });

  beforeEach(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
    events = [];
    await boot();
    project = (await host.core.api.addProject({ path: path.join(dir, 'repo') }));
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('runs an agent in the project with Drover env, follows its hooks and records its conversation id', async () => {
    await saveFakeProfile('claude');
    const agent = (await host.core.api.createAgent({ projectId: project.id, name: 'Backend', role: 'API work', profileId: 'fake' }));
    await expect(host.core.api.createAgent({ projectId: project.id, name: 'backend', role: '', profileId: 'fake' })).rejects.toThrow(/already exists/);
    await attach(agent.id);
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'ready at its prompt');
    // No conversation id before a prompt went in: only a conversation with a turn can be resumed.
    expect((await session(agent.id))?.externalSessionId).toBeNull();
    expect(screen).toContain(`agent ${agent.id} of project ${project.id} in ${path.join(dir, 'repo')}`);
    await host.core.api.writeAgentInput({ agentId: agent.id, data: 'echo $DROVER_AGENT_ID\r' });
    await waitFor(() => states(agent.id).includes('busy'), 'busy from the UserPromptSubmit hook');
    await waitFor(() => screen.includes('Done: echo'), 'the answer on screen');
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'ready from the Stop hook');
    expect(states(agent.id)).toEqual(expect.arrayContaining(['starting', 'ready', 'busy']));
    expect((await session(agent.id))?.externalSessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('falls back to screen patterns for agents without hooks, and resizes', async () => {
    await saveFakeProfile('none');
    const agent = (await host.core.api.createAgent({ projectId: project.id, name: 'Screen', role: '', profileId: 'fake' }));
    await attach(agent.id);
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'ready from the prompt on screen');
    await host.core.api.resizeAgent({ agentId: agent.id, cols: 80, rows: 20 });
    await host.core.api.writeAgentInput({ agentId: agent.id, data: 'build it\r' });
    await waitFor(() => states(agent.id).includes('busy'), 'busy from the spinner line');
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'ready again at the prompt');
  });

  it('issue 35, item 13: the PTY keeps the size of the viewer that typed last, not of one that merely attached', async () => {
    await saveShellProfile();
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'Sizes', role: '', profileId: 'sh' });
    const desktopOutput = { text: '' };
    const desktop = await attachTerminal(host.core.api, agent.id, { chunk: (data) => (desktopOutput.text += data) }, { cols: 150, rows: 40 });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'the shell at its prompt');
    // `stty size` in the agent, run by what `viewer` types: "rows cols".
    const sttySize = async (viewer: Client, marker: string) => {
      await host.core.api.writeAgentInput({ agentId: agent.id, data: `echo ${marker} $(stty size)\r` }, viewer);
      let size = '';
      await waitFor(async () => {
        const answer = new RegExp(`^${marker} (\\d+ \\d+)$`, 'm').exec((await host.core.api.readAgentScreen({ agentId: agent.id })).text);
        size = answer?.[1] ?? '';
        return size !== '';
      }, `${marker} on screen`);
      return size;
    };
    expect(await sttySize(desktop.client, 'first')).toBe('40 150');

    // A phone attaches at its own size and its pane is laid out: the desktop's size stays.
    const phone = await attachTerminal(host.core.api, agent.id, { chunk: () => {} }, { cols: 44, rows: 30 });
    await host.core.api.resizeAgent({ agentId: agent.id, cols: 44, rows: 31, byLayout: true }, phone.client);
    expect(await sttySize(desktop.client, 'attached')).toBe('40 150');

    // Typing on the phone gives the PTY the phone's size, and the desktop's stream says so.
    expect(await sttySize(phone.client, 'phone')).toBe('31 44');
    expect(desktopOutput.text).toContain(terminalSizeNote({ cols: 44, rows: 31 }));
    // The desktop laid out again changes nothing until it types.
    await host.core.api.resizeAgent({ agentId: agent.id, cols: 160, rows: 40, byLayout: true }, desktop.client);
    expect(await sttySize(phone.client, 'still-phone')).toBe('31 44');
    expect(await sttySize(desktop.client, 'desktop')).toBe('40 160');

    // The owner goes away: the phone's next layout takes the PTY.
    desktop.detach();
    await waitFor(async () => {
      await host.core.api.resizeAgent({ agentId: agent.id, cols: 44, rows: 30, byLayout: true }, phone.client);
      return (await host.core.api.readAgentScreen({ agentId: agent.id })).cols === 44;
    }, 'the phone owning the PTY once the desktop left');
    phone.detach();
  });

  it('marks every agent on the same profile limited when one hits the usage limit', async () => {
    await saveFakeProfile('none');
    const first = (await host.core.api.createAgent({ projectId: project.id, name: 'One', role: '', profileId: 'fake' }));
    const second = (await host.core.api.createAgent({ projectId: project.id, name: 'Two', role: '', profileId: 'fake' }));
    await host.core.api.startAgent({ agentId: first.id, resume: false });
    await host.core.api.startAgent({ agentId: second.id, resume: false });
    await waitFor(async () => (await session(first.id))?.state === 'ready' && (await session(second.id))?.state === 'ready', 'both ready');
    await host.core.api.writeAgentInput({ agentId: first.id, data: 'limit\r' });
    await waitFor(async () => (await session(second.id))?.state === 'limited', 'the other agent on the profile limited');
    expect((await session(first.id))).toMatchObject({ state: 'limited' });
    expect((await session(first.id))?.limitResetsAt).toBeGreaterThan(Date.now());
  });

  it("holds Drover's wakes of an agent at its account's limit, but a person's Wake now goes in at its empty prompt", async () => {
    await saveFakeProfile('none');
    const first = await host.core.api.createAgent({ projectId: project.id, name: 'One', role: '', profileId: 'fake' });
    const second = await host.core.api.createAgent({ projectId: project.id, name: 'Two', role: '', profileId: 'fake' });
    await attach(second.id);
    await host.core.api.startAgent({ agentId: first.id, resume: false });
    await host.core.api.startAgent({ agentId: second.id, resume: false });
    await waitFor(async () => (await session(first.id))?.state === 'ready' && (await session(second.id))?.state === 'ready', 'both ready');
    await host.core.api.writeAgentInput({ agentId: first.id, data: 'limit\r' });
    await waitFor(async () => (await session(second.id))?.state === 'limited', 'the other agent on the profile limited');
    await host.core.api.sendMessage({ projectId: project.id, to: 'Two', kind: 'note', body: 'the deploy is done' });
    const wake = async () => (await host.core.api.getWorkState({ projectId: project.id })).wakes.find((found) => found.agentId === second.id);
    await waitFor(async () => (await wake())?.state === 'waiting', 'a wake waiting for the reset');
    expect((await wake())?.notBefore).toBeGreaterThan(Date.now());
    expect(await host.core.api.wakeAgent({ agentId: second.id })).toEqual({ agentId: second.id, delivered: 1 });
    await waitFor(() => screen.includes('Note from a person: the deploy is done'), 'the wake typed into its prompt');
  });

  it('keeps a flood flowing under flow control, and Ctrl-C stops it at once', async () => {
    await saveShellProfile();
    const agent = (await host.core.api.createAgent({ projectId: project.id, name: 'Flooder', role: '', profileId: 'sh' }));
    let received = 0;
    let tail = '';
    await attachTerminal(host.core.api, agent.id, {
      chunk: (data) => {
        received += data.length;
        tail = (tail + data).slice(-2000);
      },
    });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'the shell prompt');
    await host.core.api.writeAgentInput({ agentId: agent.id, data: 'yes flooding\r' });
    await waitFor(() => received > 2_000_000, 'two million characters of flood');
    await host.core.api.writeAgentInput({ agentId: agent.id, data: '\u0003' });
    await host.core.api.writeAgentInput({ agentId: agent.id, data: 'echo flood-$((40+2))\r' });
    await waitFor(() => tail.includes('flood-42'), 'the shell back at its prompt after Ctrl-C');
  });

  it('decodes UTF-8 split across PTY reads', async () => {
    await saveShellProfile();
    const agent = (await host.core.api.createAgent({ projectId: project.id, name: 'Unicode', role: '', profileId: 'sh' }));
    const seen = { text: '' };
    await attachTerminal(host.core.api, agent.id, { chunk: (data) => (seen.text += data) });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'the shell prompt');
    const script = "process.stdout.write('é€😀'.repeat(40000) + 'END')";
    await host.core.api.writeAgentInput({ agentId: agent.id, data: `'${process.execPath}' -e "${script}"\r` });
    await waitFor(() => seen.text.includes('😀END'), 'the whole multibyte output');
    const output = seen.text.slice(seen.text.lastIndexOf('\n') + 1);
    expect(output).not.toContain('\uFFFD');
    expect(output.match(/é€😀/g)?.length).toBe(40000);
  });

  it('explains a profile whose command is not installed instead of opening a dead terminal', async () => {
    await host.core.api.saveAgentProfile({
      profile: { id: 'ghost', name: 'Ghost', command: 'no-such-agent-cli', args: [], env: {}, promptPattern: null, busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 500, integration: 'none', wakeAs: 'prompt' },
    });
    const agent = (await host.core.api.createAgent({ projectId: project.id, name: 'Ghost', role: '', profileId: 'ghost' }));
    await expect(host.core.api.startAgent({ agentId: agent.id, resume: false })).rejects.toThrow(/no-such-agent-cli is not installed or not on PATH/);
  });

  it('stops with SIGTERM, restarts, and after a host restart shows the last screen and resumes the conversation', async () => {
    await saveFakeProfile('claude');
    const agent = (await host.core.api.createAgent({ projectId: project.id, name: 'Keeper', role: '', profileId: 'fake' }));
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'ready');
    await host.core.api.writeAgentInput({ agentId: agent.id, data: 'remember me\r' });
    await waitFor(async () => (await session(agent.id))?.state === 'ready' && states(agent.id).includes('busy'), 'the answer');
    const conversation = (await session(agent.id))?.externalSessionId as string;
    await host.close();
    events = [];
    await boot();
    expect((await session(agent.id))).toMatchObject({ state: 'exited', endReason: 'app-restart' });
    const restored = await attach(agent.id);
    expect(screen).toContain('Done: remember me');
    expect(screen).toContain('Session ended when Drover stopped');
    restored.detach();
    await attach(agent.id);
    await host.core.api.startAgent({ agentId: agent.id, resume: true });
    await waitFor(() => screen.includes(`resumed conversation ${conversation}`), 'the resumed conversation');
    await host.core.api.stopAgent({ agentId: agent.id });
    expect((await session(agent.id))).toMatchObject({ state: 'exited', endReason: 'stopped' });
  });

  it("removing an agent removes its scrollback file and launch files; its tasks' logs stay with the tasks", async () => {
    await saveShellProfile();
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'Gone', role: '', profileId: 'sh' });
    await attach(agent.id);
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(async () => (await session(agent.id))?.state === 'ready', 'ready at its prompt');
    await host.core.api.writeAgentInput({ agentId: agent.id, data: 'echo scrolled-by\r' });
    await waitFor(() => screen.includes('scrolled-by'), 'the echo on screen');
    const task = await host.core.api.createTask({ projectId: project.id, command: 'echo task-output', ownerAgentId: agent.id });
    await waitFor(async () => (await host.core.api.getTask({ taskId: task.id })).state === 'succeeded', 'the task done');
    const agentFiles = () => fs.readdirSync(path.join(dir, 'data'), { recursive: true, encoding: 'utf8' }).filter((file) => file.split(path.sep).includes(agent.id));
    await waitFor(() => agentFiles().some((file) => file.endsWith('scrollback.log')), 'the scrollback file written');
    await host.core.api.removeAgent({ agentId: agent.id });
    expect(agentFiles()).toEqual([]);
    expect(fs.readFileSync(task.logPath, 'utf8')).toContain('task-output');
  });
});
