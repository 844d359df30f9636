import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../../shared/entities/projects';
import { MAX_MESSAGE_CHARS } from '../../../shared/messageBody';
import { REPLY_PAGE_BYTES } from '../../../shared/protocol';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { createCore, type Core } from '../compose';

describe('paged lists and work-state snapshots', () => {
  let dir: string;
  let core: Core;
  let project: Project;

  beforeEach(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', settingsDefaults: { taskConcurrency: 1 } });
    project = await core.api.addProject({ path: path.join(dir, 'repo') });
    // Holds the only slot, so every other task stays queued and nothing runs.
    await core.api.createTask({ projectId: project.id, command: 'sleep 30', label: 'blocker' });
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  const addTasks = async (count: number, command: (i: number) => string) => {
    for (let i = 0; i < count; i++) await core.api.createTask({ projectId: project.id, command: command(i), label: `task-${i}` });
  };

  it('pages tasks newest first, each page within its byte budget, every task exactly once', async () => {
    // Control characters: six bytes of JSON each, so 60 of these tasks are ~36 MB of JSON.
    await addTasks(60, (i) => `: ${i} '${'\u0001'.repeat(99_000)}'`);
    const seen: string[] = [];
    let pages = 0;
    for (let after: string | undefined; ; pages++) {
      const page = await core.api.listTasks({ projectId: project.id, ...(after ? { after } : {}) });
      expect(page.tasks.length === 1 || JSON.stringify(page.tasks).length <= REPLY_PAGE_BYTES).toBe(true);
      seen.push(...page.tasks.map((task) => task.label ?? ''));
      if (page.next === null) break;
      after = page.next;
    }
    expect(pages).toBeGreaterThan(5);
    expect(seen).toEqual([...Array.from({ length: 60 }, (_, i) => `task-${59 - i}`), 'blocker']);
  });

  it('honours a limit and a state filter, and refuses to continue after an unknown task', async () => {
    await addTasks(5, (i) => `echo ${i}`);
    const first = await core.api.listTasks({ projectId: project.id, states: ['queued'], limit: 2 });
    expect(first.tasks.map((task) => task.label)).toEqual(['task-4', 'task-3']);
    const rest = await core.api.listTasks({ projectId: project.id, states: ['queued'], after: first.next as string });
    expect(rest).toMatchObject({ next: null });
    expect(rest.tasks.map((task) => task.label)).toEqual(['task-2', 'task-1', 'task-0']);
    await expect(core.api.listTasks({ projectId: project.id, after: 't-000000000000' })).rejects.toThrow(/No task t-000000000000 in this project/);
  });

  it('delivers a huge work state in bounded parts that add up to the whole', async () => {
    await addTasks(40, (i) => `: ${i} '${'\u0001'.repeat(99_000)}'`);
    const agent = await core.api.createAgent({ projectId: project.id, name: 'Owner', role: '', profileId: 'shell' });
    for (let i = 0; i < 30; i++) await core.api.sendMessage({ projectId: project.id, to: 'Owner', kind: 'note', body: `note ${i} ${'\u0002'.repeat(99_000)}` });
    const first = await core.api.getWorkState({ projectId: project.id });
    expect(first.agents.map((a) => a.id)).toEqual([agent.id]);
    const parts = [first];
    while (parts.at(-1)?.next) parts.push(await core.api.getWorkState({ projectId: project.id, after: parts.at(-1)?.next as string }));
    for (const part of parts) expect(part.tasks.length + part.messages.length === 1 || JSON.stringify(part).length <= REPLY_PAGE_BYTES * 1.01).toBe(true);
    expect(parts.every((part) => part.seq >= first.seq)).toBe(true);
    expect(parts.slice(1).every((part) => part.agents.length === 0 && part.sessions.length === 0 && part.wakes.length === 0)).toBe(true);
    expect(parts.flatMap((part) => part.tasks).map((task) => task.label)).toEqual([...Array.from({ length: 40 }, (_, i) => `task-${39 - i}`), 'blocker']);
    expect(parts.flatMap((part) => part.messages).map((message) => message.body.split(' ')[1])).toEqual(Array.from({ length: 30 }, (_, i) => String(i)));
  });

  it('reads a message stored before messages had a bound (a whole CI log) cut to one, saying so: the project stays readable', async () => {
    const agent = await core.api.createAgent({ projectId: project.id, name: 'Flooded', role: '', profileId: 'shell' });
    const note = await core.api.sendMessage({ projectId: project.id, to: 'Flooded', kind: 'note', body: 'The checks failed:' });
    // Written as an older Drover stored it: more than a whole page of a reply, in one row.
    const db = new Database(path.join(dir, 'data', 'projects', project.id, 'state.sqlite'));
    db.prepare("UPDATE inbox_messages SET body = body || replace(hex(zeroblob(?)), '00', 'x') WHERE id = ?").run(REPLY_PAGE_BYTES, note.id);
    db.close();
    const length = 'The checks failed:'.length + REPLY_PAGE_BYTES;
    const snapshot = (await core.api.getWorkState({ projectId: project.id })).messages.map((message) => message.body);
    const inbox = (await core.api.listInbox({ agentId: agent.id, unreadOnly: false })).messages.map((message) => message.body);
    for (const body of [...snapshot, ...inbox]) {
      expect(body.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
      expect(body.startsWith('The checks failed:xxx')).toBe(true);
      expect(body.slice(-120)).toMatch(new RegExp(`x\\n\\n\\[Drover cut this message here: it was ${length.toLocaleString('en-US')} characters long, and a message holds at most 100,000\\.\\]$`));
    }
    expect([snapshot.length, inbox.length]).toEqual([1, 1]);
  });

  it('reads a stored message within the bound in characters but past it in UTF-16 units (emoji) cut as one sent now would be', async () => {
    const agent = await core.api.createAgent({ projectId: project.id, name: 'Cheered', role: '', profileId: 'shell' });
    const note = await core.api.sendMessage({ projectId: project.id, to: 'Cheered', kind: 'note', body: 'Well done:' });
    // 60,000 emoji: 60,010 characters to SQLite, 120,010 UTF-16 units to JavaScript.
    const db = new Database(path.join(dir, 'data', 'projects', project.id, 'state.sqlite'));
    db.prepare('UPDATE inbox_messages SET body = body || ? WHERE id = ?').run('🎉'.repeat(60_000), note.id);
    db.close();
    const [body] = (await core.api.listInbox({ agentId: agent.id, unreadOnly: false })).messages.map((message) => message.body);
    expect(body?.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(body?.startsWith('Well done:🎉🎉')).toBe(true);
    expect(body?.slice(-120)).toMatch(/🎉\n\n\[Drover cut this message here: it was 120,010 characters long, and a message holds at most 100,000\.\]$/);
  });

  it('pages an agent’s inbox oldest first', async () => {
    const agent = await core.api.createAgent({ projectId: project.id, name: 'Reader', role: '', profileId: 'shell' });
    for (let i = 0; i < 5; i++) await core.api.sendMessage({ projectId: project.id, to: 'Reader', kind: 'note', body: `m${i}` });
    const first = await core.api.listInbox({ agentId: agent.id, unreadOnly: false, limit: 3 });
    const rest = await core.api.listInbox({ agentId: agent.id, unreadOnly: false, after: first.next as string });
    expect([...first.messages, ...rest.messages].map((m) => m.body)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(rest.next).toBeNull();
  });
});
