import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AgentProfile, WakeStyle } from '../../../shared/entities/profiles';
import type { ProjectSettings } from '../../../shared/entities/projects';
import type { AgentHookEvent, AgentQuota, AgentSession } from '../../../shared/entities/sessions';
import type { TerminalChunk } from '../../../shared/events';
import type { MirrorSnapshot } from './screenMirror';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { Locator } from '../locate';
import { namesSameProcess, signalProcessGroup } from '../process/processGroup';
import { planLaunch } from '../profiles/agentLaunch';
import { readCliVersion } from '../profiles/cliVersion';
import type { LaunchFile } from '../profiles/cliLaunch';
import type { ProfileRegistry } from '../profiles/profileRegistry';
import type { ProjectWork } from '../projects/projectMethods';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import { publicSession, type SessionChange, type SessionRecord } from '../storage/sessionStore';
import { AgentProcess } from './agentProcess';
import { AgentTerminal, terminalNote } from './agentTerminal';
import { LimitLineTracker } from './limitLines';
import type { ProgramState } from './programStatus';
import { typePrompt, whyNotAtPrompt, type PromptTimings, type PromptTyping } from './promptTyping';
import { detectState, readScreen, type DetectedState, type StateSignal } from './stateDetector';
import { ShellKeys } from './shellKeys';
import { isTyping, TerminalViewers, type TerminalSize } from './terminalViewers';
import type { AgentWorkspaces } from '../workspaces/agentWorkspace';

export interface SessionOptions {
  socketPath: string;
  /** Folder with the `drover` shim that agent terminals find first on PATH. */
  shimDir: string;
  /** The environment an agent of a project with these settings starts from. */
  baseEnv(settings: ProjectSettings): NodeJS.ProcessEnv;
  stopGraceMs?: number;
  /** A usage limit whose reset time is unknown is lifted after this long, to be seen again if it holds. */
  limitRecheckMs?: number;
  /** Lines of scrollback the host's mirror of each agent terminal keeps. */
  scrollbackLines: number;
  /** A turn's prompt became known: a hook reported it, or a person ran a command in a shell. */
  onPrompt?(agentId: string, prompt: string): void;
  /** Settles once a turn of the agent that has ended has its checkpoint (a shell's next command waits for it). */
  checkpointed?(agentId: string): Promise<void>;
  /** Whether the person paused the account the profile's agents spend (see AccountPauses). */
  isAccountPaused?(profileId: string): boolean;
  log(line: string): void;
}

/** What the agent CLI reported through a hook, read out of its payload by `drover hook`. */
export interface HookReport {
  event: AgentHookEvent;
  externalSessionId?: string | undefined;
  error?: string | undefined;
  message?: string | undefined;
  quota?: AgentQuota | undefined;
  prompt?: string | undefined;
}

interface LiveSession {
  projectId: string;
  agentId: string;
  sessionId: string;
  profile: AgentProfile;
  process: AgentProcess;
  terminal: AgentTerminal;
  /** This session's secret (in its terminal's env only): whoever hands it back speaks for the agent. */
  proof: Buffer;
  /** The CLI's own signals (hooks, status reports) have spoken: busy and ready are theirs to say. */
  signalsSeen: boolean;
  /** Counts the CLI's signs of a turn (hooks, status reports), to tell a submitted prompt was taken. */
  turnSignals: number;
  /** The conversation id Drover started the CLI with; kept for resuming once a turn went into it. */
  conversationId: string | null;
  /** The conversation this session resumed, if it did. */
  resumedId: string | null;
  startedAt: number;
  limitLines: LimitLineTracker;
  /** A plain shell's keys: each command line submitted is a turn. */
  shellKeys: ShellKeys | null;
  /**
   * performance.now() of the last key typed into it through the API (a person's, or a script's), or
   * of its start through the API: who started it may type its first command at once.
   */
  typedAt: number;
}

export interface TerminalAttachment {
  acknowledge(chars: number): void;
  detach(): void;
}

/** A client viewing agent terminals (a window, a page): the key under which its size is kept. */
export type TerminalViewer = object;

const LIMIT_RECHECK_MS = 15 * 60 * 1000;
const INITIAL_COLS = 120;
const INITIAL_ROWS = 32;
/** A resumed CLI that exits within this long, with an error, could not resume its conversation. */
const RESUME_FAILS_WITHIN_MS = 20_000;
const RESUME_FAILED_NOTE = terminalNote('The conversation could not be resumed; Drover started a new one.');
/** Written once into the terminal of a session the host's stop (or crash) ended. */
export const RESTART_NOTE = terminalNote('Session ended when Drover stopped. Start it again to continue.');
/** A host that died (a crash, a kill) ended nothing itself: the next host finds the session still recorded as live. */
export const HOST_DIED_NOTE = terminalNote('Session ended when the Drover host died. Start it again to continue.');

/**
 * Agent sessions: one AgentProcess per running agent, in the project root; its output reaches
 * attached clients with flow control, and its state comes from the agent's own hooks first and its
 * screen as the fallback. Usage limits belong to the account behind a profile, so a limit seen in
 * one session holds every session on that profile until the reset.
 */
export class SessionService implements ProjectWork {
  private readonly live = new Map<string, LiveSession>();
  /** Per agent, across its sessions and for the host's lifetime, made when first needed. */
  private readonly terminals = new Map<string, AgentTerminal>();
  /** Per agent: whose size its PTY takes, among the clients viewing it. */
  private readonly viewers = new Map<string, TerminalViewers<TerminalViewer>>();
  /** Projects being removed: no session starts in them. */
  private readonly closing = new Set<string>();
  /** Profile id -> when its usage limit resets (null: unknown). */
  private readonly limits = new Map<string, { resetsAt: number | null; timer: NodeJS.Timeout }>();

  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly profiles: ProfileRegistry,
    private readonly events: EventBus,
    private readonly options: SessionOptions,
    /** Where each agent works: its own worktree, or the project folder. */
    private readonly workspaces: AgentWorkspaces,
  ) {}

  /** `byApi`: a person (or a script) started it, and may type into it at once. */
  start(agentId: string, resume: boolean, byApi = false): AgentSession {
    const { store, agent } = this.locator.agent(agentId);
    if (this.live.has(agentId)) fail('invalid-state', `${agent.name} is already running; stop or restart it.`);
    if (this.closing.has(agent.projectId)) fail('invalid-state', 'This project is being removed; no agent starts in it.');
    const project = this.projects.get(agent.projectId);
    const profile = this.profiles.get(agent.profileId);
    if (profile.unavailableReason) fail('spawn-failed', `Cannot start ${agent.name} with ${profile.name}: ${profile.unavailableReason}`);
    const resumeId = resume ? store.sessions.lastExternalSessionId(agentId) : null;
    // Hex: no secret-looking pattern an agent CLI strips from the env its tools get matches it.
    const proof = randomBytes(32);
    const plan = planLaunch({
      profile,
      agent,
      socketPath: this.options.socketPath,
      shimDir: this.options.shimDir,
      agentDir: this.agentDir(agent.projectId, agentId),
      // The last id any session learnt: a session that ended before its CLI reported one must not lose it.
      resumeId,
      proof: proof.toString('hex'),
      preApproveDroverTools: store.settings.get().preApproveDroverTools,
      accountPaused: this.options.isAccountPaused?.(profile.id) ?? false,
      baseEnv: this.options.baseEnv(store.settings.get()),
    });
    writeLaunchFiles(plan.files);
    const terminal = this.terminalOf(agent.projectId, agentId);
    terminal.beginSession();
    const sessionId = newId('s');
    const current = () => {
      const live = this.live.get(agentId);
      return live?.sessionId === sessionId ? live : undefined;
    };
    const workspace = this.workspaces.workspaceOf(agent, project.path);
    let process: AgentProcess;
    try {
      process = new AgentProcess({
        file: plan.file,
        args: plan.args,
        cwd: workspace.folder,
        env: { ...plan.env, ...workspace.env },
        quietMs: profile.quietMs,
        terminal,
        onQuiet: () => {
          const live = current();
          if (live) this.readScreen(live).catch((error: unknown) => this.options.log(`reading ${agentId}'s screen failed: ${String(error)}`));
        },
        onExit: (exitCode) => {
          const live = current();
          if (live) this.onExit(live, exitCode);
        },
        onProgramState: (state) => {
          const live = current();
          if (live) this.onProgramState(live, state);
        },
      });
    } catch (error) {
      fail('spawn-failed', `Cannot start ${agent.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const record = store.sessions.insert({ id: sessionId, agentId, profileId: profile.id, startedAt: Date.now() });
    this.live.set(agentId, {
      projectId: agent.projectId,
      agentId,
      sessionId,
      profile,
      process,
      terminal,
      proof,
      signalsSeen: false,
      turnSignals: 0,
      conversationId: plan.conversationId,
      resumedId: resumeId,
      startedAt: Date.now(),
      limitLines: new LimitLineTracker(),
      shellKeys: profile.wakeAs === 'shell-note' ? this.shellKeys(agentId, current) : null,
      typedAt: byApi ? performance.now() : Number.NEGATIVE_INFINITY,
    });
    const started = this.changeSession(store, record.id, { pid: process.pid, pidStartTime: process.startTime });
    this.noteCliVersion(agentId, sessionId, profile.command, plan.file, plan.env);
    const limit = this.limits.get(profile.id);
    if (limit) return this.changeSession(store, record.id, { state: 'limited', limitResetsAt: limit.resetsAt });
    return started;
  }

  /** Reads the CLI's version beside the running session (never holding it up) and shows it on the session. */
  private noteCliVersion(agentId: string, sessionId: string, command: string, file: string, env: NodeJS.ProcessEnv): void {
    readCliVersion(command, file, env)
      .then((cliVersion) => {
        if (cliVersion && this.live.get(agentId)?.sessionId === sessionId) this.changeSession(this.locator.agent(agentId).store, sessionId, { cliVersion });
      })
      .catch((error: unknown) => this.options.log(`noting ${agentId}'s CLI version failed: ${String(error)}`));
  }

  async stop(agentId: string): Promise<AgentSession> {
    const { store } = this.locator.agent(agentId);
    await this.stopLive(agentId, 'stopped');
    const latest = store.sessions.latest(agentId);
    if (!latest) fail('invalid-state', 'This agent has never been started.');
    return publicSession(latest);
  }

  async restart(agentId: string, resume: boolean): Promise<AgentSession> {
    await this.stopLive(agentId, 'stopped');
    return this.start(agentId, resume, true);
  }

  /** The agent is being removed: its session ends and its terminal closes (its files: discardFiles). */
  async forget(agentId: string): Promise<void> {
    await this.stopLive(agentId, 'removed');
    const terminal = this.terminals.get(agentId);
    this.terminals.delete(agentId);
    this.viewers.delete(agentId);
    await terminal?.dispose();
  }

  /**
   * Deletes a removed agent's folder (its scrollback, which may hold secrets, and its CLI's launch
   * files). Only once the removal went through: a refused one keeps the agent, and its scrollback.
   */
  discardFiles(projectId: string, agentId: string): void {
    fs.rmSync(this.agentDir(projectId, agentId), { recursive: true, force: true });
  }

  /** The agent's running session whose secret `proof` is (compared in constant time), or null. */
  identify(agentId: string, proof: string): string | null {
    const live = this.live.get(agentId);
    if (!live || !/^[0-9a-f]+$/.test(proof)) return null;
    const given = Buffer.from(proof, 'hex');
    return given.length === live.proof.length && timingSafeEqual(given, live.proof) ? live.sessionId : null;
  }

  /** `viewer`: the client that typed it, whose size the PTY takes from now on (see TerminalViewers). */
  write(agentId: string, data: string, viewer?: TerminalViewer): void {
    const live = this.requireLive(agentId);
    if (isTyping(data)) {
      live.typedAt = performance.now();
      if (viewer) this.resizeTo(agentId, this.viewersOf(agentId).typed(viewer));
    }
    if (live.shellKeys) live.shellKeys.write(data);
    else live.process.write(data);
  }

  /** A shell has no hooks: a command the person submits starts a turn, its prompt coming back ends it. */
  private shellKeys(agentId: string, current: () => LiveSession | undefined): ShellKeys {
    return new ShellKeys({
      send: (data) => current()?.process.write(data),
      lineBeginning: () => {
        const live = current();
        return live ? this.lineBeginning(live) : Promise.resolve();
      },
      submitted: (line) => {
        const live = current();
        if (!live) return;
        if (line.text !== null) this.options.onPrompt?.(agentId, line.text);
        this.apply(live, { kind: 'submitted' });
      },
    });
  }

  /**
   * A shell's next command line begins (called before its first key is sent). A command whose
   * output has not been quiet for the profile's quiet period yet still counts as running: the screen
   * as it is before this key, read now, ends its turn if the prompt is back. Settles once the turn
   * that ended has its checkpoint; never rejects.
   */
  private async lineBeginning(live: LiveSession): Promise<void> {
    try {
      const session = this.stores.isOpen(live.projectId) ? this.stores.get(live.projectId).sessions.get(live.sessionId) : undefined;
      if (session?.state === 'busy') await this.readScreen(live);
      await this.options.checkpointed?.(live.agentId);
    } catch (error) {
      this.options.log(`reading ${live.agentId}'s screen as a command line began failed: ${String(error)}`);
    }
  }

  /**
   * CLIs that go on by themselves when a usage limit resets: Claude Code (since 2.1.234, unless
   * turned off in its /config) and OpenCode (it retries a 429 after its retry-after).
   */
  continuesAtLimitReset(agentId: string): boolean {
    const integration = this.live.get(agentId)?.profile.integration;
    return integration === 'claude' || integration === 'opencode';
  }

  /**
   * A viewer's size: the PTY (or the terminal an ended session left) takes it if that viewer owns
   * it, or takes it over: `byLayout` false (a person resized it), or no viewer owns it yet.
   */
  resize(agentId: string, size: TerminalSize, viewer: TerminalViewer, byLayout: boolean): void {
    this.locator.agent(agentId);
    this.resizeTo(agentId, this.viewersOf(agentId).reported(viewer, size, byLayout));
  }

  /** The viewer detached or went away: the PTY keeps its size, and the next viewer to type or resize takes it. */
  viewerLeft(agentId: string, viewer: TerminalViewer): void {
    this.viewers.get(agentId)?.left(viewer);
  }

  /**
   * Connects a client to the agent's terminal: it gets the host's mirror serialized, and from the
   * point where that ends the live chunks. A client that gives its size reports it as a layout
   * does: the PTY takes it only if no viewer owns it yet.
   */
  async attach(agentId: string, send: (chunk: TerminalChunk) => void, sized?: { viewer: TerminalViewer; size: TerminalSize }): Promise<TerminalAttachment & MirrorSnapshot & { at: number }> {
    const { agent } = this.locator.agent(agentId);
    const terminal = this.terminalOf(agent.projectId, agentId);
    if (sized) this.resize(agentId, sized.size, sized.viewer, true);
    return terminal.attach({ send: (data, at) => send({ agentId, projectId: agent.projectId, at, data }) });
  }

  private resizeTo(agentId: string, size: TerminalSize | null): void {
    if (!size) return;
    const live = this.live.get(agentId);
    if (live) live.process.resize(size.cols, size.rows);
    else this.terminalOf(this.locator.agent(agentId).agent.projectId, agentId).resize(size.cols, size.rows);
  }

  private viewersOf(agentId: string): TerminalViewers<TerminalViewer> {
    let viewers = this.viewers.get(agentId);
    if (!viewers) {
      viewers = new TerminalViewers();
      this.viewers.set(agentId, viewers);
    }
    return viewers;
  }

  /** What the host's mirror of the agent's terminal holds: scrollback, then the screen, as text (`styled`: with its looks). */
  async screenText(agentId: string, styled: boolean): Promise<{ text: string } & TerminalSize> {
    const { agent } = this.locator.agent(agentId);
    const terminal = this.terminalOf(agent.projectId, agentId);
    return { text: await terminal.text({ styled }), cols: terminal.cols, rows: terminal.rows };
  }

  /** Lines of scrollback each agent terminal's mirror keeps, from now on and for those open now. */
  setScrollbackLines(lines: number): void {
    this.options.scrollbackLines = lines;
    for (const terminal of this.terminals.values()) terminal.setScrollbackLines(lines);
  }

  hook(agentId: string, report: HookReport): AgentSession {
    const { store } = this.locator.agent(agentId);
    const live = this.live.get(agentId);
    const session = live ? store.sessions.get(live.sessionId) : undefined;
    if (!live || !session) fail('invalid-state', 'This agent has no running session.');
    if (report.event === 'quota') {
      return report.quota ? this.changeSession(store, session.id, { quota: report.quota }) : publicSession(session);
    }
    live.signalsSeen = true;
    if (report.event !== 'session-start' && report.event !== 'needs-input') live.turnSignals++;
    // An id is worth keeping once a prompt went into it: only such a conversation can be resumed.
    if (report.externalSessionId && report.event !== 'session-start' && report.externalSessionId !== session.externalSessionId) {
      this.announceSession(publicSession(store.sessions.update(session.id, { externalSessionId: report.externalSessionId })));
    }
    if (report.event === 'prompt-submitted' && report.prompt) this.options.onPrompt?.(agentId, report.prompt);
    return this.apply(live, { kind: 'hook', event: report.event, error: report.error, message: report.message }) ?? publicSession(session);
  }

  /** Null when Drover may type into the agent now; otherwise why not, in a person's words. */
  /**
   * `keysQuietMs`: how long ago the last key typed into it through the API (or its start through the
   * API, see LiveSession.typedAt) must be; keys typed on meanwhile would mix with Drover's text, and
   * its Enter submit both.
   */
  async readiness(agentId: string, keysQuietMs: number): Promise<string | null> {
    const { store } = this.locator.agent(agentId);
    const live = this.live.get(agentId);
    const session = live && store.sessions.get(live.sessionId);
    if (!live || !session) return store.sessions.latest(agentId)?.state ?? 'not started';
    if (session.needsInput) return 'waiting for your answer to its question';
    // A limit holds back Drover's own wakes (AgentWakeService waits for the reset); a person's Wake now goes in at an empty prompt.
    if (session.state !== 'ready' && session.state !== 'limited') return session.state;
    if (performance.now() - live.typedAt < keysQuietMs) return `in a person's hands (started or typed into less than ${keysQuietMs / 1000} s ago)`;
    return whyNotAtPrompt(readScreen(await live.process.screen(), live.profile));
  }

  /**
   * Types the text `compose` writes for the agent's wake style as its next prompt and submits it, if
   * it is positively at an empty prompt (see typePrompt); `onTyping` runs once it is, before the first key.
   */
  async typePrompt(agentId: string, compose: (style: WakeStyle) => string, timings: PromptTimings, onTyping?: () => void): Promise<PromptTyping> {
    const why = await this.readiness(agentId, timings.keysQuietMs);
    if (why) return { outcome: 'not-ready', why };
    const live = this.live.get(agentId);
    if (!live) return { outcome: 'not-ready', why: 'not running' };
    onTyping?.();
    const typedBefore = live.typedAt;
    return typePrompt(
      {
        read: async () => readScreen(await live.process.screen(), live.profile),
        bracketedPaste: () => live.process.bracketedPaste(),
        write: (data) => live.process.write(data),
        typedMeanwhile: () => live.typedAt !== typedBefore,
        turnSignals: () => live.turnSignals,
        alive: () => this.live.get(agentId) === live,
        submitOnly: live.profile.wakeAs === 'shell-note',
      },
      compose(live.profile.wakeAs),
      timings,
    );
  }

  /**
   * Boot: a host that stops ends its sessions first, so one still recorded as live was cut off by a
   * host that died; a surviving agent is ended, and its terminal says so.
   */
  reconcile(store: ProjectStore): number {
    let ended = 0;
    for (const session of store.sessions.live()) {
      if (session.pid !== null && namesSameProcess(session.pid, session.pidStartTime)) signalProcessGroup(session.pid, 'SIGKILL');
      this.changeSession(store, session.id, { state: 'exited', endReason: 'host-died', endedAt: Date.now(), needsInput: false });
      const terminal = this.terminalOf(session.projectId, session.agentId);
      terminal.write(HOST_DIED_NOTE);
      terminal.flush();
      ended++;
    }
    return ended;
  }

  async stopProject(projectId: string): Promise<void> {
    this.closing.add(projectId);
    await Promise.all([...this.live.values()].filter((l) => l.projectId === projectId).map((l) => this.stopLive(l.agentId, 'removed')));
  }

  projectClosed(projectId: string): void {
    this.closing.delete(projectId);
  }

  async shutdown(): Promise<void> {
    for (const limit of this.limits.values()) clearTimeout(limit.timer);
    await Promise.all([...this.live.keys()].map((agentId) => this.stopLive(agentId, 'app-restart')));
    const terminals = [...this.terminals.values()];
    this.terminals.clear();
    await Promise.all(terminals.map((terminal) => terminal.dispose()));
  }

  private async readScreen(live: LiveSession): Promise<void> {
    const reading = readScreen(await live.process.screen(), live.profile);
    const newLimit = live.limitLines.note(reading.limitLines, Date.now());
    this.apply(live, { kind: 'screen', reading, newLimit, signalsDecide: live.signalsSeen });
  }

  private onProgramState(live: LiveSession, state: ProgramState): void {
    live.signalsSeen = true;
    if (state === 'working' || state === 'done' || state === 'error') live.turnSignals++;
    this.apply(live, { kind: 'program', state });
  }

  /** Moves the session on a signal; a limit seen in one session holds (or leaves) its whole profile. */
  private apply(live: LiveSession, signal: StateSignal): AgentSession | undefined {
    if (this.live.get(live.agentId) !== live || !this.stores.isOpen(live.projectId)) return undefined;
    const store = this.stores.get(live.projectId);
    const session = store.sessions.get(live.sessionId);
    if (!session || session.state === 'exited') return undefined;
    const next = detectState(detected(session), signal, Date.now());
    if ((next ?? session).state === 'busy') this.turnStarted(store, live, session);
    if (!next) return publicSession(session);
    const changed = this.changeSession(store, session.id, next);
    if (next.state === 'limited') this.limitProfile(live.profile.id, next.limitResetsAt);
    else if (session.state === 'limited') this.liftLimit(live.profile.id);
    return changed;
  }

  /**
   * A turn went into the conversation: it can be resumed now, by the id Drover chose at launch (so
   * resuming does not wait for a hook to name it), and limit lines from now on are news.
   */
  private turnStarted(store: ProjectStore, live: LiveSession, session: SessionRecord): void {
    live.limitLines.turnStarted();
    if (live.conversationId && !session.externalSessionId) {
      this.announceSession(publicSession(store.sessions.update(session.id, { externalSessionId: live.conversationId })));
    }
  }

  /** Every session on the same profile (the same account) is limited until the reset. */
  private limitProfile(profileId: string, resetsAt: number | null): void {
    const existing = this.limits.get(profileId);
    clearTimeout(existing?.timer);
    // Without a known reset the limit is lifted after a while, to be seen again if it still holds.
    const liftAt = resetsAt ?? Date.now() + (this.options.limitRecheckMs ?? LIMIT_RECHECK_MS);
    const limit = { resetsAt, timer: setTimeout(() => this.liftLimit(profileId), Math.max(0, liftAt - Date.now())) };
    limit.timer.unref();
    this.limits.set(profileId, limit);
    for (const live of this.liveOnProfile(profileId)) {
      const store = this.stores.get(live.projectId);
      const session = store.sessions.get(live.sessionId);
      if (session && session.state !== 'exited' && (session.state !== 'limited' || session.limitResetsAt !== resetsAt)) {
        this.changeSession(store, session.id, { state: 'limited', limitResetsAt: resetsAt, needsInput: false });
      }
    }
  }

  private liftLimit(profileId: string): void {
    clearTimeout(this.limits.get(profileId)?.timer);
    this.limits.delete(profileId);
    for (const live of this.liveOnProfile(profileId)) {
      const store = this.stores.get(live.projectId);
      const session = store.sessions.get(live.sessionId);
      if (session?.state === 'limited') this.changeSession(store, session.id, { state: 'ready', limitResetsAt: null });
    }
  }

  private liveOnProfile(profileId: string): LiveSession[] {
    return [...this.live.values()].filter((live) => live.profile.id === profileId);
  }

  private onExit(live: LiveSession, exitCode: number | null): void {
    this.live.delete(live.agentId);
    if (!this.stores.isOpen(live.projectId)) return;
    const store = this.stores.get(live.projectId);
    if (!store.sessions.get(live.sessionId)) return;
    // A CLI that cannot resume its conversation (it no longer has it) exits at once: start afresh.
    const resumeFailed = live.resumedId !== null && !live.process.stoppedBecause && exitCode !== 0 && Date.now() - live.startedAt < RESUME_FAILS_WITHIN_MS;
    const reason = resumeFailed ? 'resume-failed' : (live.process.stoppedBecause ?? 'exited');
    if (reason === 'app-restart') live.terminal.write(RESTART_NOTE);
    this.changeSession(store, live.sessionId, { state: 'exited', exitCode, endReason: reason, endedAt: Date.now(), needsInput: false });
    if (!resumeFailed || this.closing.has(live.projectId)) return;
    this.options.log(`${live.agentId} could not resume conversation ${live.resumedId}; starting a new one`);
    live.terminal.write(RESUME_FAILED_NOTE);
    try {
      this.start(live.agentId, false);
    } catch (error) {
      this.options.log(`${live.agentId} could not start a new conversation: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async stopLive(agentId: string, reason: string): Promise<void> {
    await this.live.get(agentId)?.process.stop(reason, this.options.stopGraceMs ?? 3_000);
  }

  /** The agent's terminal, made on first use: rebuilt from its scrollback file after a restart of the host, or empty for a new agent. */
  private terminalOf(projectId: string, agentId: string): AgentTerminal {
    let terminal = this.terminals.get(agentId);
    if (!terminal) {
      terminal = new AgentTerminal({
        scrollbackFile: path.join(this.agentDir(projectId, agentId), 'scrollback.log'),
        scrollbackLines: this.options.scrollbackLines,
        cols: INITIAL_COLS,
        rows: INITIAL_ROWS,
      });
      this.terminals.set(agentId, terminal);
    }
    return terminal;
  }

  private agentDir(projectId: string, agentId: string): string {
    return path.join(this.stores.projectDir(projectId), 'agents', agentId);
  }

  private changeSession(store: ProjectStore, sessionId: string, change: SessionChange): AgentSession {
    const session = publicSession(store.sessions.update(sessionId, change));
    this.announceSession(session);
    return session;
  }

  private announceSession(session: AgentSession): void {
    this.events.emit({ name: 'agentSessionChanged', seq: session.seq, projectId: session.projectId, session });
  }

  private requireLive(agentId: string): LiveSession {
    const live = this.live.get(agentId);
    if (!live) {
      const { agent } = this.locator.agent(agentId);
      fail('invalid-state', `${agent.name} is not running; start it first.`);
    }
    return live;
  }
}

/** Writes the agent CLI's config files (owner-only: they may hold what the person's config holds). */
function writeLaunchFiles(files: LaunchFile[]): void {
  for (const file of files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true, mode: 0o700 });
    if ('content' in file) {
      fs.writeFileSync(file.path, file.content, { mode: 0o600 });
      fs.chmodSync(file.path, 0o600);
    } else {
      fs.rmSync(file.path, { force: true, recursive: true });
      fs.symlinkSync(file.linkTo, file.path);
    }
  }
}

function detected(session: SessionRecord): DetectedState {
  const state = session.state === 'exited' ? 'ready' : session.state;
  return { state, needsInput: session.needsInput, limitResetsAt: session.limitResetsAt };
}
