import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import { DEFAULT_PROJECT_SETTINGS } from '../../../shared/entities/projects';
import type { Wake } from '../../../shared/entities/wake';
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
import type { PromptTyping } from '../sessions/promptTyping';
import { AccountPauses } from '../accounts/accountPauses';
import { AppSettingsService } from '../appSettings/appSettingsService';
import { ProfileRegistry } from '../profiles/profileRegistry';
import { AppSettingsTable } from '../storage/appSettingsTable';
import { DefinitionTable } from '../storage/definitionTable';
import type { ChannelWake } from '../../../shared/contract/wake';
import { AgentWakeService, DEFAULT_WAKE_OPTIONS, type WakeOptions } from './agentWakeService';
import { WakeChannels } from './wakeChannels';
import { channelOrTypedWakes, type WakeTerminal } from './wakeDelivery';

describe('AgentWakeService', () => {
  let dir: string;
  let appDb: SqliteDatabase;
  let stores: ProjectStores;
  let store: ProjectStore;
  let inbox: MediatedInbox;
  let wakes: AgentWakeService;
  let stopListening: () => void;
  /** Starts the wake service (the test's own, with short timings, unless a test starts another). */
  let startWakes: (options: WakeOptions) => void;
  let pauses: AccountPauses;
  let agent: Agent;
  let typed: string[];
  let failWrites: number;
  let style: 'prompt' | 'shell-note';
  /** Why the agent's screen does not show its empty prompt; null when it does. */
  let screenNotReady: string | null;
  /** How long ago a person typed into the agent, as the session counts it. */
  let personTypedMsAgo: number;
  /** How the next typings go (then 'submitted'). */
  let outcomes: PromptTyping[];
  /** How often the wake service had the session look at the agent's screen. */
  let readinessChecks: number;
  /** Whether the agent's CLI goes on by itself at a limit's reset (Claude Code). */
  let continuesAtReset: boolean;
  const CONTINUE_GRACE_MS = 400;
  let events: EventBus;
  let channels: WakeChannels;
  /** The agent's MCP servers of a test, as they hold its wake channel open. */
  let channelServers: AbortController[];

  const terminal: WakeTerminal = {
    continuesAtLimitReset: () => continuesAtReset,
    readiness: async (_agentId, keysQuietMs) => {
      readinessChecks++;
      if (personTypedMsAgo < keysQuietMs) return "in a person's hands";
      return screenNotReady;
    },
    // As the session does: one readiness check, then the first key (a PTY write that fails).
    typePrompt: async (_agentId, compose, timings, onTyping) => {
      readinessChecks++;
      if (personTypedMsAgo < timings.keysQuietMs) return { outcome: 'not-ready', why: "in a person's hands" };
      if (screenNotReady) return { outcome: 'not-ready', why: screenNotReady };
      onTyping?.();
      if (failWrites > 0) {
        failWrites--;
        throw new Error('the PTY is gone');
      }
      const outcome = outcomes.shift() ?? { outcome: 'submitted' };
      typed.push(compose(style));
      return outcome;
    },
  };
  /** As the agent's MCP server does: waits for each wake and reports on it (`answer` null: never). */
  const serveChannel = (answer: (wake: ChannelWake) => { sent: true } | { sent: false; error: string } | null) => {
    const server = new AbortController();
    channelServers.push(server);
    const received: ChannelWake[] = [];
    void (async () => {
      while (!server.signal.aborted) {
        const handed = await channels.next(agent.id, 60_000, server.signal);
        if (!handed) continue;
        received.push(handed);
        const report = answer(handed);
        if (report) channels.report(agent.id, handed.deliveryId, report);
      }
    })();
    return { received, close: () => server.abort() };
  };
  const wake = (): Wake | undefined => store.wakes.visible().find((w) => w.agentId === agent.id);
  const setSession = (state: 'ready' | 'busy' | 'limited', limitResetsAt: number | null = null) => {
    const session = store.sessions.latest(agent.id) ?? store.sessions.insert({ id: `s-${Date.now()}`, agentId: agent.id, profileId: 'shell', startedAt: Date.now() });
    return store.sessions.update(session.id, { state, limitResetsAt });
  };
  /** As the session service does: the state stored, then announced. */
  const announceSession = (state: 'ready' | 'busy') => {
    const session = setSession(state);
    events.emit({ name: 'agentSessionChanged', seq: session.seq, projectId: store.projectId, session });
  };

  beforeEach(() => {
    dir = makeTempDir();
    appDb = openDatabase(path.join(dir, 'app.sqlite'), { migrations: APP_MIGRATIONS, description: 'app database' });
    events = new EventBus();
    const projects = new ProjectRegistry(new ProjectTable(appDb), events);
    stores = new ProjectStores({ dataDir: dir, settingsDefaults: DEFAULT_PROJECT_SETTINGS });
    const project = projects.add(dir, (projectId) => stores.createEmpty(projectId));
    store = stores.get(project.id);
    agent = store.agents.insert({ id: 'a-agent1', name: 'Agent', role: '', profileId: 'shell', createdAt: 1 });
    const locator = new Locator(projects, stores);
    pauses = new AccountPauses(new AppSettingsService(new AppSettingsTable(appDb), events), new ProfileRegistry(new DefinitionTable(appDb, 'profiles'), process.env));
    inbox = new MediatedInbox(locator, projects, stores, events);
    typed = [];
    failWrites = 0;
    style = 'prompt';
    screenNotReady = null;
    personTypedMsAgo = Number.POSITIVE_INFINITY;
    outcomes = [];
    readinessChecks = 0;
    continuesAtReset = false;
    channels = new WakeChannels();
    channelServers = [];
    startWakes = (options) => {
      wakes = new AgentWakeService(locator, stores, events, inbox, channelOrTypedWakes(channels, terminal, () => {}), pauses, options);
      stopListening = wakes.listen();
    };
    startWakes({
      submitDelayMs: 1,
      confirmMs: 50,
      keysQuietMs: 1_000,
      retryBaseMs: 20,
      maxAttempts: 3,
      recheckMs: 20,
      limitContinueGraceMs: CONTINUE_GRACE_MS,
      log: () => {},
    });
  });
  afterEach(() => {
    for (const server of channelServers) server.abort();
    stopListening();
    wakes.stop();
    stores.closeAll();
    appDb.close();
    removeDir(dir);
  });

  it('types one line as a prompt, and only when the agent is ready', async () => {
    setSession('busy');
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'first' });
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'second\nline' });
    expect(typed).toEqual([]);
    expect(wake()?.state).toBe('waiting');
    setSession('ready');
    wakes.schedule(store.projectId, agent.id);
    await waitFor(() => wake()?.state === 'delivered', 'delivery');
    expect(typed).toHaveLength(1);
    expect(typed[0]).toMatch(/^\[Drover\] New messages \(2\): \(1\) Note from a person: first \(2\) Note from a person: second ⏎ line/);
    expect(typed[0]).not.toContain('\n');
    expect(store.inbox.messages(agent.id).map((m) => m.state)).toEqual(['delivered', 'delivered']);
  });

  it('types a summary of a long queue: the first few messages, how many more, and where to read them; all are delivered', async () => {
    setSession('busy');
    store.transaction(() => {
      for (let i = 1; i <= 500; i++) inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: `note ${i} ${'x'.repeat(2_000)}` });
    });
    setSession('ready');
    wakes.schedule(store.projectId, agent.id);
    await waitFor(() => wake()?.state === 'delivered', 'delivery');
    expect(typed).toHaveLength(1);
    expect(typed[0]).toMatch(/^\[Drover\] New messages \(500\): \(1\) Note from a person: note 1 x+… \(2\) Note from a person: note 2 x+… \(3\) Note from a person: note 3 x+… — and 497 more: read_inbox has them all\.$/);
    expect(typed[0]?.length).toBeLessThan(2_500);
    expect(wake()?.messageIds).toHaveLength(500);
    expect(store.inbox.messages(agent.id).every((m) => m.state === 'delivered')).toBe(true);
  });

  it('types a note a plain shell only shows, for shell profiles', async () => {
    style = 'shell-note';
    setSession('ready');
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: "it's done; rm -rf / $(reboot)" });
    await waitFor(() => wake()?.state === 'delivered', 'delivery');
    expect(typed[0]).toBe("true '[Drover] New message: Note from a person: it’s done; rm -rf / $(reboot) — drover inbox shows the full text.'");
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

  it('types nothing while the screen does not show the empty prompt, whatever the state says, and types once it does', async () => {
    setSession('ready');
    screenNotReady = 'showing a dialog or menu';
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'not into the dialog' });
    await waitFor(() => readinessChecks >= 3, 'the wake service to look at the screen again and again');
    expect(typed).toEqual([]);
    expect(wake()).toMatchObject({ state: 'waiting', attempts: 0 });
    await expect(wakes.wakeNow(agent.id)).rejects.toThrow(/showing a dialog or menu; Drover types into a terminal only when its agent is ready at an empty prompt/);
    screenNotReady = null;
    await waitFor(() => wake()?.state === 'delivered', 'delivery once the prompt shows');
    expect(typed).toHaveLength(1);
  });

  it("types Drover's wakes only once a person's keys are past, but a person's Wake now at once", async () => {
    setSession('ready');
    personTypedMsAgo = 0;
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'typed over' });
    wakes.schedule(store.projectId, agent.id);
    await waitFor(() => readinessChecks > 1, 'the wake looking again');
    expect(typed).toEqual([]);
    expect(wake()?.state).toBe('waiting');
    expect(await wakes.wakeNow(agent.id)).toBe(1);
    expect(typed).toHaveLength(1);
  });

  it('retries a typing whose text never showed in the input (Enter was not pressed)', async () => {
    setSession('ready');
    outcomes = [{ outcome: 'not-taken', why: 'the text never showed in its input' }];
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'hello' });
    await waitFor(() => wake()?.state === 'delivered', 'the retry to deliver');
    expect(wake()).toMatchObject({ attempts: 2, lastError: null });
  });

  it('reports a wake the agent did not take up, and never types it again', async () => {
    setSession('ready');
    outcomes = [{ outcome: 'unconfirmed', why: 'it showed no sign of starting a turn' }];
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'once only' });
    await waitFor(() => wake()?.state === 'failed', 'the wake reported');
    expect(wake()?.lastError).toBe('Typed in and submitted, but it showed no sign of starting a turn');
    expect(store.inbox.messages(agent.id)[0]?.state).toBe('delivered');
    const checks = readinessChecks;
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'a later message' });
    await waitFor(() => typed.length === 2, 'the later message typed');
    expect(typed[1]).toMatch(/a later message/);
    expect(typed[1]).not.toMatch(/once only/);
    expect(readinessChecks).toBeGreaterThan(checks);
  });

  it('holds wakes of an agent whose plan quota is spent until it frees up', async () => {
    const resetsAt = Date.now() + 60_000;
    const session = store.sessions.insert({ id: 's-quota', agentId: agent.id, profileId: 'claude', startedAt: Date.now() });
    store.sessions.update(session.id, { state: 'ready', quota: { fiveHour: { usedPercent: 100, resetsAt }, weekly: { usedPercent: 40, resetsAt: null } } });
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'after the quota frees up' });
    expect(wake()).toMatchObject({ state: 'waiting', notBefore: resetsAt });
    expect(typed).toEqual([]);
  });

  it('waits for a limited agent until its reset time', async () => {
    const resetsAt = Date.now() + 60_000;
    setSession('limited', resetsAt);
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'after the limit' });
    expect(wake()).toMatchObject({ state: 'waiting', notBefore: resetsAt });
    expect(typed).toEqual([]);
  });

  /** An agent whose CLI goes on by itself at a reset, limited until one 50 ms away, with a result waiting for it. */
  const limitedWithMailUntilSoon = () => {
    continuesAtReset = true;
    const resetsAt = Date.now() + 50;
    setSession('limited', resetsAt);
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'a result that came during the limit' });
    expect(wake()).toMatchObject({ state: 'waiting', notBefore: resetsAt + CONTINUE_GRACE_MS });
    return resetsAt;
  };

  it("leaves the moment of a limit's reset to a CLI that goes on by itself then: the wake waits past it, then delivers once", async () => {
    const resetsAt = limitedWithMailUntilSoon();
    // The limit lifts at the reset; the CLI's own continuation has the prompt to itself for a while.
    await waitFor(() => Date.now() >= resetsAt, 'the reset');
    setSession('ready');
    await waitFor(() => Date.now() >= resetsAt + CONTINUE_GRACE_MS / 2, 'half the grace');
    expect(typed).toEqual([]);
    await waitFor(() => wake()?.state === 'delivered', 'the wake once the grace is over');
    expect(typed).toHaveLength(1);
  });

  it("by default waits past the latest moment Claude Code goes on by itself: 90 s after a reset its screen names up to a minute early", () => {
    stopListening();
    wakes.stop();
    startWakes({ ...DEFAULT_WAKE_OPTIONS, log: () => {} });
    continuesAtReset = true;
    const resetsAt = Date.now() + 3_600_000;
    // "resets 12:53am" of a limit that lifts at 12:53:59.
    const shownReset = resetsAt - (resetsAt % 60_000);
    setSession('limited', shownReset);
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'a result that came during the limit' });
    expect(wake()?.notBefore).toBeGreaterThan(shownReset + 59_999 + 90_000);
  });

  it("ends that grace once the CLI's own continuation is seen: the wake waits only for its turn's end", async () => {
    const resetsAt = limitedWithMailUntilSoon();
    await waitFor(() => Date.now() >= resetsAt, 'the reset');
    announceSession('busy');
    expect(wake()).toMatchObject({ state: 'waiting', notBefore: null });
    expect(typed).toEqual([]);
    announceSession('ready');
    await waitFor(() => wake()?.state === 'delivered', 'the wake at the end of the continuation');
    expect(typed).toHaveLength(1);
  });

  it("holds every wake of a paused account's agents until it resumes; a person's wake still delivers", async () => {
    setSession('ready');
    // A shell spends no account; Aider, a CLI on its own, does.
    expect(() => pauses.pause(agent.profileId)).toThrow('Shell is a shell: it spends no account to pause.');
    agent = store.agents.update({ ...agent, profileId: 'aider' });
    const paused = pauses.pause(agent.profileId);
    expect(paused).toMatchObject({ key: 'profile:aider', label: 'Aider' });
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'while paused' });
    wakes.schedule(store.projectId, agent.id);
    expect(wake()?.state).toBe('waiting');
    expect(readinessChecks).toBe(0);

    expect(await wakes.wakeNow(agent.id)).toBe(1);
    expect(typed).toHaveLength(1);
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'still paused' });
    wakes.schedule(store.projectId, agent.id);
    expect(typed).toHaveLength(1);

    expect(pauses.resume(paused.key)).toBe(true);
    await waitFor(() => typed.length === 2, 'the wake once the account resumed');
    expect(typed[1]).toContain('still paused');
    expect(pauses.resume(paused.key)).toBe(false);
  });

  it('puts a wake cut off mid-delivery back to waiting at boot', () => {
    setSession('busy');
    inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'cut off' });
    store.wakes.update(wake()?.id as string, { state: 'delivering' }, Date.now());
    expect(wakes.reconcile(store)).toBe(1);
    expect(wake()?.state).toBe('waiting');
    expect(wakes.reconcile(store)).toBe(0);
  });

  describe('through the wake channel', () => {
    it('pushes the wake through an open channel, types nothing, and delivers as typing does', async () => {
      setSession('ready');
      const server = serveChannel(() => ({ sent: true }));
      inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'by channel' });
      await waitFor(() => wake()?.state === 'delivered', 'delivery');
      expect(typed).toEqual([]);
      expect(server.received).toHaveLength(1);
      expect(server.received[0]?.content).toBe('[Drover] New message: Note from a person: by channel — read_inbox has the full text.');
      expect(server.received[0]?.meta).toEqual({ delivery_id: server.received[0]?.deliveryId });
      expect(wake()).toMatchObject({ attempts: 1, lastError: null });
      expect(store.inbox.messages(agent.id)[0]?.state).toBe('delivered');
    });

    it('never pushes into a screen that does not show the empty prompt', async () => {
      setSession('ready');
      screenNotReady = 'showing a dialog or menu';
      const server = serveChannel(() => ({ sent: true }));
      inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'not now' });
      await waitFor(() => readinessChecks >= 3, 'the wake service to look again and again');
      expect(server.received).toEqual([]);
      expect(wake()).toMatchObject({ state: 'waiting', attempts: 0 });
      screenNotReady = null;
      await waitFor(() => wake()?.state === 'delivered', 'delivery once the prompt shows');
      expect(server.received).toHaveLength(1);
    });

    it('types a wake the channel could not send, in the same attempt (it counts once)', async () => {
      setSession('ready');
      const server = serveChannel(() => ({ sent: false, error: 'the CLI closed the stdio transport' }));
      inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'typed instead' });
      await waitFor(() => wake()?.state === 'delivered', 'delivery');
      expect(server.received).toHaveLength(1);
      expect(typed).toHaveLength(1);
      expect(typed[0]).toContain('typed instead');
      expect(wake()).toMatchObject({ attempts: 1, lastError: null });
    });

    it('never types a wake the channel took but did not confirm (it may have arrived): reported as typing reports one', async () => {
      setSession('ready');
      const server = serveChannel(() => null);
      inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'once only' });
      await waitFor(() => wake()?.state === 'failed', 'the wake reported');
      expect(wake()?.lastError).toBe('Pushed through its channel, but its MCP server did not confirm the wake within 50 ms');
      expect(wake()?.attempts).toBe(1);
      expect(server.received).toHaveLength(1);
      expect(typed).toEqual([]);
      expect(store.inbox.messages(agent.id)[0]?.state).toBe('delivered');
    });

    it('hands a wake once, to the newest of two MCP servers of the agent, and neither ends the wait of the other', async () => {
      setSession('ready');
      const older = serveChannel(() => ({ sent: true }));
      const newer = serveChannel(() => ({ sent: true }));
      inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'once' });
      await waitFor(() => wake()?.state === 'delivered', 'delivery');
      expect(newer.received).toHaveLength(1);
      expect(older.received).toEqual([]);
      expect(typed).toEqual([]);
      newer.close();
      expect(channels.isOpen(agent.id)).toBe(true);
    });

    it('types again once the MCP server went away', async () => {
      setSession('ready');
      serveChannel(() => ({ sent: true })).close();
      expect(channels.isOpen(agent.id)).toBe(false);
      inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: 'typed' });
      await waitFor(() => wake()?.state === 'delivered', 'delivery');
      expect(typed).toHaveLength(1);
    });
  });
});
