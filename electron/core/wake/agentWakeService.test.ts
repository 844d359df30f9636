import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROJECT_SETTINGS, type Agent, type Wake } from '../../../shared/entities';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { EventBus } from '../events/eventBus';
import { MediatedInbox } from '../inbox/mediatedInbox';
import { Locator } from '../locate';
import { ProjectRegistry } from '../projects/projectRegistry';
import { APP_MIGRATIONS } from '../storage/appSchema';
import { ProjectStores, type ProjectStore } from '../storage/projectStores';
import { ProjectTable } from '../storage/projectTable';
import { openDatabase, type SqliteDatabase } from '../storage/sqlite';
import { AgentWakeService, type WakeTerminal } from './agentWakeService';

describe('AgentWakeService', () => {
  let dir: string;
  let appDb: SqliteDatabase;
  let stores: ProjectStores;
  let store: ProjectStore;
  let inbox: MediatedInbox;
  let wakes: AgentWakeService;
  let agent: Agent;
  let typed: string[];
  let failWrites: number;
  let style: 'prompt' | 'shell-note';

  const terminal: WakeTerminal = {
    write: (_agentId, data) => {
      if (failWrites > 0) {
        failWrites--;
        throw new Error('the PTY is gone');
      }
      typed.push(data);
    },
    wakeStyle: () => style,
  };
  const wake = (): Wake | undefined => store.wakes.visible().find((w) => w.agentId === agent.id);
  const setSession = (state: 'ready' | 'busy' | 'limited', limitResetsAt: number | null = null) => {
    const session = store.sessions.latest(agent.id) ?? store.sessions.insert({ id: `s-${Date.now()}`, agentId: agent.id, profileId: 'shell', startedAt: Date.now() });
    store.sessions.update(session.id, { state, limitResetsAt });
  };

  beforeEach(() => {
    dir = makeTempDir();
    appDb = openDatabase(path.join(dir, 'app.sqlite'), { migrations: APP_MIGRATIONS, description: 'app database' });
    const events = new EventBus();
    const projects = new ProjectRegistry(new ProjectTable(appDb), events);
    stores = new ProjectStores({ dataDir: dir, settingsDefaults: DEFAULT_PROJECT_SETTINGS });
    const project = projects.add(dir);
    store = stores.get(project.id);
    agent = store.agents.insert({ id: 'a-agent1', name: 'Agent', role: '', profileId: 'shell', createdAt: 1 });
    const locator = new Locator(projects, stores);
    inbox = new MediatedInbox(locator, projects, stores, events);
    typed = [];
    failWrites = 0;
    style = 'prompt';
    wakes = new AgentWakeService(locator, stores, events, inbox, terminal, { submitDelayMs: 1, retryBaseMs: 20, maxAttempts: 3, log: () => {} });
  });
  afterEach(() => {
    wakes.stop();
    stores.closeAll();
    appDb.close();
    removeDir(dir);
  });

  it('types one line and presses Enter, and only when the agent is ready', async () => {
    setSession('busy');
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'first' });
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'second\nline' });
    expect(typed).toEqual([]);
    expect(wake()?.state).toBe('waiting');
    setSession('ready');
    wakes.schedule(store.projectId, agent.id);
    await waitFor(() => wake()?.state === 'delivered', 'delivery');
    expect(typed).toHaveLength(2);
    expect(typed[0]).toMatch(/^\[Drover\] 2 new messages: \(1\) Note from a person: first \(2\) Note from a person: second ⏎ line/);
    expect(typed[0]).not.toContain('\n');
    expect(typed[1]).toBe('\r');
    expect(store.inbox.messages(agent.id).map((m) => m.state)).toEqual(['delivered', 'delivered']);
  });

  it('types a note a plain shell only shows, for shell profiles', async () => {
    style = 'shell-note';
    setSession('ready');
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: "it's done; rm -rf / $(reboot)" });
    await waitFor(() => wake()?.state === 'delivered', 'delivery');
    expect(typed[0]).toBe("true '[Drover] 1 new message: Note from a person: it’s done; rm -rf / $(reboot) — read_inbox has the full text.'");
  });

  it('never types control characters from a message (they would act as keys)', async () => {
    setSession('ready');
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'stop\u0003 now\u001b[201~\u0004 \u009b' });
    await waitFor(() => wake()?.state === 'delivered', 'delivery');
    expect(typed[0]).toMatch(/Note from a person: stop now \[201~ —/);
    // eslint-disable-next-line no-control-regex -- the very characters that must not be typed
    expect(typed[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('retries a failed write with backoff, then marks the wake failed and keeps the messages', async () => {
    setSession('ready');
    failWrites = 10;
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'hello' });
    await waitFor(() => wake()?.state === 'failed', 'the wake to give up');
    expect(wake()).toMatchObject({ attempts: 3, lastError: 'the PTY is gone' });
    expect(store.inbox.messages(agent.id)[0]?.state).toBe('pending');
    expect(typed).toEqual([]);
  });

  it('recovers when a retry succeeds', async () => {
    setSession('ready');
    failWrites = 1;
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'hello' });
    await waitFor(() => wake()?.state === 'delivered', 'the retry to deliver');
    expect(wake()).toMatchObject({ attempts: 2, lastError: null });
  });

  it('waits for a limited agent until its reset time', async () => {
    const resetsAt = Date.now() + 60_000;
    setSession('limited', resetsAt);
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'after the limit' });
    expect(wake()).toMatchObject({ state: 'waiting', notBefore: resetsAt });
    expect(typed).toEqual([]);
  });

  it('puts a wake cut off mid-delivery back to waiting at boot', () => {
    setSession('busy');
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'cut off' });
    store.wakes.update(wake()?.id as string, { state: 'delivering' }, Date.now());
    expect(wakes.reconcile(store)).toBe(1);
    expect(wake()?.state).toBe('waiting');
    expect(wakes.reconcile(store)).toBe(0);
  });
});
