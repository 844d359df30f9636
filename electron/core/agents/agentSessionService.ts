import fs from 'node:fs';
import path from 'node:path';
import * as pty from 'node-pty';
import type { Agent, AgentProfile, AgentSession, WakeStyle } from '../../../shared/entities';
import type { TerminalChunk } from '../../../shared/events';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { ProjectRegistry } from '../projects/projectRegistry';
import { locateAgent } from './locateAgent';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import { isSameProcessAlive, readProcessStartTime, signalProcessGroup } from '../tasks/processControl';
import { publicSession, type SessionChange, type SessionRecord } from './agentStore';
import { planLaunch } from './agentLaunch';
import type { ProfileRegistry } from './profileRegistry';
import { ScreenMirror } from './screenMirror';
import { ScrollbackLog } from './scrollbackLog';
import { detectState, type DetectedState, type HookEvent } from './stateDetector';
import { TerminalStream, type TerminalSink } from './terminalStream';

export interface AgentSessionOptions {
  socketPath: string;
  /** Folder with the `drover` shim that agent terminals find first on PATH. */
  shimDir: string;
  baseEnv: NodeJS.ProcessEnv;
  stopGraceMs?: number;
  log(line: string): void;
}

interface LiveSession {
  projectId: string;
  agentId: string;
  sessionId: string;
  profileId: string;
  profile: AgentProfile;
  terminal: pty.IPty;
  mirror: ScreenMirror;
  scrollback: ScrollbackLog;
  hooksSeen: boolean;
  stopping: boolean;
  endReason?: string;
  quietTimer?: NodeJS.Timeout;
  killTimer?: NodeJS.Timeout;
  exited: Promise<void>;
}

const INITIAL_COLS = 120;
const INITIAL_ROWS = 32;
const RESTART_NOTE = '\r\n\u001b[0m\u001b[2m── Session ended when Drover stopped. Start it again to continue. ──\u001b[0m\r\n';

/**
 * Agent sessions: one PTY per agent in the project root, its output batched to attached clients
 * with flow control, kept in a bounded scrollback, and mirrored headlessly to detect the agent's
 * state (its own hooks first, the screen as the fallback).
 */
export class AgentSessionService {
  private readonly live = new Map<string, LiveSession>();
  /** Per agent, across its sessions, so an attached pane sees the next session start. */
  private readonly streams = new Map<string, TerminalStream>();
  /** Projects being removed: no session starts in them. */
  private readonly closing = new Set<string>();
  /** Usage limits belong to the account behind a profile: profile id -> reset time. */
  private readonly limits = new Map<string, { resetsAt: number | null; timer?: NodeJS.Timeout }>();

  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly profiles: ProfileRegistry,
    private readonly events: EventBus,
    private readonly options: AgentSessionOptions,
  ) {}

  createAgent(input: { projectId: string; name: string; role: string; profileId: string }): Agent {
    this.projects.get(input.projectId);
    this.profiles.get(input.profileId);
    const store = this.stores.get(input.projectId);
    const name = input.name.trim();
    if (store.agents.byName(name)) fail('conflict', `An agent named ${name} already exists in this project.`);
    const agent = store.agents.insert({ id: newId('a'), name, role: input.role, profileId: input.profileId, createdAt: Date.now() });
    this.announceAgent(agent);
    return agent;
  }

  updateAgent(input: { agentId: string; name?: string | undefined; role?: string | undefined; profileId?: string | undefined }): Agent {
    const { store, agent } = this.locate(input.agentId);
    const name = input.name?.trim() ?? agent.name;
    const clash = store.agents.byName(name);
    if (clash && clash.id !== agent.id) fail('conflict', `An agent named ${name} already exists in this project.`);
    if (input.profileId) this.profiles.get(input.profileId);
    const updated = store.agents.update({ ...agent, name, role: input.role ?? agent.role, profileId: input.profileId ?? agent.profileId });
    this.announceAgent(updated);
    return updated;
  }

  async removeAgent(agentId: string): Promise<void> {
    const { store, agent } = this.locate(agentId);
    await this.stopLive(agentId, 'removed');
    this.streams.delete(agentId);
    const seq = store.agents.remove(agentId);
    this.events.emit({ name: 'agentChanged', seq, projectId: agent.projectId, agentId, agent: null });
  }

  start(agentId: string, resume: boolean): AgentSession {
    const { store, agent } = this.locate(agentId);
    if (this.live.has(agentId)) fail('invalid-state', `${agent.name} is already running; stop or restart it.`);
    if (this.closing.has(agent.projectId)) fail('invalid-state', 'This project is being removed; no agent starts in it.');
    const project = this.projects.get(agent.projectId);
    const profile = this.profiles.get(agent.profileId);
    if (profile.unavailableReason) fail('spawn-failed', `Cannot start ${agent.name} with ${profile.name}: ${profile.unavailableReason}`);
    const previous = store.agents.latestSession(agentId);
    const agentDir = path.join(this.stores.projectDir(agent.projectId), 'agents', agentId);
    const plan = planLaunch({
      profile,
      agent,
      socketPath: this.options.socketPath,
      shimDir: this.options.shimDir,
      agentDir,
      resumeId: resume ? (previous?.externalSessionId ?? null) : null,
      baseEnv: this.options.baseEnv,
    });
    for (const file of plan.files) {
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      fs.writeFileSync(file.path, file.content, { mode: 0o600 });
    }
    let terminal: pty.IPty;
    try {
      terminal = pty.spawn(plan.file, plan.args, { name: 'xterm-256color', cols: INITIAL_COLS, rows: INITIAL_ROWS, cwd: project.path, env: plan.env });
    } catch (error) {
      fail('spawn-failed', `Cannot start ${agent.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const record = store.agents.insertSession({ id: newId('s'), agentId, profileId: profile.id, startedAt: Date.now() });
    const scrollback = this.scrollbackOf(agent);
    scrollback.append(`\u001bc`);
    let resolveExit: () => void = () => {};
    const live: LiveSession = {
      projectId: agent.projectId,
      agentId,
      sessionId: record.id,
      profileId: profile.id,
      profile,
      terminal,
      mirror: new ScreenMirror(INITIAL_COLS, INITIAL_ROWS),
      scrollback,
      hooksSeen: false,
      stopping: false,
      exited: new Promise((resolve) => (resolveExit = resolve)),
    };
    this.live.set(agentId, live);
    this.stream(agentId).connect(terminal);
    terminal.onData((data) => this.onOutput(live, data));
    terminal.onExit(({ exitCode, signal }) => {
      this.onExit(live, signal ? null : exitCode);
      resolveExit();
    });
    const started = this.changeSession(store, record.id, { pid: terminal.pid, pidStartTime: readProcessStartTime(terminal.pid) });
    const limit = this.limits.get(profile.id);
    if (limit) return this.changeSession(store, record.id, { state: 'limited', limitResetsAt: limit.resetsAt });
    return started;
  }

  async stop(agentId: string): Promise<AgentSession> {
    const { store } = this.locate(agentId);
    await this.stopLive(agentId, 'stopped');
    const latest = store.agents.latestSession(agentId);
    if (!latest) fail('invalid-state', 'This agent has never been started.');
    return publicSession(latest);
  }

  async restart(agentId: string, resume: boolean): Promise<AgentSession> {
    await this.stopLive(agentId, 'stopped');
    return this.start(agentId, resume);
  }

  write(agentId: string, data: string): void {
    this.requireLive(agentId).terminal.write(data);
  }

  wakeStyle(agentId: string): WakeStyle {
    return this.requireLive(agentId).profile.wakeAs;
  }

  resize(agentId: string, cols: number, rows: number): void {
    const live = this.requireLive(agentId);
    live.terminal.resize(cols, rows);
    live.mirror.resize(cols, rows);
  }

  /** Connects a client to the agent's terminal; it first gets what the terminal showed so far. */
  attach(agentId: string, send: (chunk: TerminalChunk) => void): { scrollback: string; acknowledge(chars: number): void; detach(): void } {
    const { store, agent } = this.locate(agentId);
    const sink: TerminalSink = { send: (data) => send({ agentId, projectId: agent.projectId, data }) };
    const stream = this.stream(agentId);
    stream.flush();
    const scrollback = this.live.get(agentId)?.scrollback ?? this.scrollbackOf(agent);
    const ended = this.live.has(agentId) ? undefined : store.agents.latestSession(agentId);
    const note = ended?.endReason === 'app-restart' ? RESTART_NOTE : '';
    return { scrollback: scrollback.tail() + note, ...stream.attach(sink) };
  }

  hook(agentId: string, event: HookEvent, externalSessionId: string | undefined): AgentSession {
    const { store } = this.locate(agentId);
    const live = this.live.get(agentId);
    const session = live ? store.agents.session(live.sessionId) : undefined;
    if (!live || !session) fail('invalid-state', 'This agent has no running session.');
    live.hooksSeen = true;
    let current = session;
    if (externalSessionId && externalSessionId !== session.externalSessionId) {
      current = store.agents.updateSession(session.id, { externalSessionId });
      this.announceSession(publicSession(current));
    }
    const next = detectState(this.detected(current), { kind: 'hook', event }, live.profile, Date.now());
    return next ? this.changeSession(store, session.id, next) : publicSession(current);
  }

  /** Boot: sessions recorded as live were cut off by the restart; a surviving agent is ended. */
  reconcile(store: ProjectStore): number {
    let ended = 0;
    for (const session of store.agents.liveSessions()) {
      if (session.pid !== null && isSameProcessAlive(session.pid, session.pidStartTime)) signalProcessGroup(session.pid, 'SIGKILL');
      this.changeSession(store, session.id, { state: 'exited', endReason: 'app-restart', endedAt: Date.now(), needsInput: false });
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
  }

  /** Per chunk only cheap work: the mirror parses output when it falls quiet (see ScreenMirror). */
  private onOutput(live: LiveSession, data: string): void {
    live.scrollback.append(data);
    live.mirror.write(data);
    this.stream(live.agentId).push(data);
    clearTimeout(live.quietTimer);
    live.quietTimer = setTimeout(() => {
      this.readScreen(live).catch((error: unknown) => this.options.log(`reading ${live.agentId}'s screen failed: ${String(error)}`));
    }, live.profile.quietMs);
  }

  private async readScreen(live: LiveSession): Promise<void> {
    const text = await live.mirror.text();
    if (this.live.get(live.agentId) !== live || !this.stores.isOpen(live.projectId)) return;
    const store = this.stores.get(live.projectId);
    const session = store.agents.session(live.sessionId);
    if (!session || session.state === 'exited') return;
    const next = detectState(this.detected(session), { kind: 'screen', text, hooksSeen: live.hooksSeen }, live.profile, Date.now());
    if (!next) return;
    this.changeSession(store, session.id, next);
    if (next.state === 'limited') this.limitProfile(live.profileId, next.limitResetsAt);
  }

  /** Every session on the same profile (the same account) is limited until the reset. */
  private limitProfile(profileId: string, resetsAt: number | null): void {
    const existing = this.limits.get(profileId);
    clearTimeout(existing?.timer);
    const limit: { resetsAt: number | null; timer?: NodeJS.Timeout } = { resetsAt };
    if (resetsAt !== null) {
      limit.timer = setTimeout(() => this.liftLimit(profileId), Math.max(0, resetsAt - Date.now()));
      limit.timer.unref();
    }
    this.limits.set(profileId, limit);
    for (const live of this.live.values()) {
      if (live.profileId !== profileId) continue;
      const store = this.stores.get(live.projectId);
      const session = store.agents.session(live.sessionId);
      if (session && session.state !== 'exited' && (session.state !== 'limited' || session.limitResetsAt !== resetsAt)) {
        this.changeSession(store, session.id, { state: 'limited', limitResetsAt: resetsAt, needsInput: false });
      }
    }
  }

  private liftLimit(profileId: string): void {
    this.limits.delete(profileId);
    for (const live of this.live.values()) {
      if (live.profileId !== profileId) continue;
      const store = this.stores.get(live.projectId);
      const session = store.agents.session(live.sessionId);
      if (session?.state === 'limited') this.changeSession(store, session.id, { state: 'ready', limitResetsAt: null });
    }
  }

  private onExit(live: LiveSession, exitCode: number | null): void {
    clearTimeout(live.quietTimer);
    clearTimeout(live.killTimer);
    live.scrollback.flush();
    this.stream(live.agentId).connect(null);
    live.mirror.dispose();
    if (this.live.get(live.agentId) === live) this.live.delete(live.agentId);
    if (!this.stores.isOpen(live.projectId)) return;
    const store = this.stores.get(live.projectId);
    if (!store.agents.session(live.sessionId)) return;
    const reason = live.stopping ? (live.endReason ?? 'stopped') : 'exited';
    this.changeSession(store, live.sessionId, { state: 'exited', exitCode, endReason: reason, endedAt: Date.now(), needsInput: false });
  }

  private async stopLive(agentId: string, reason: string): Promise<void> {
    const live = this.live.get(agentId);
    if (!live) return;
    if (!live.stopping) {
      live.stopping = true;
      live.endReason = reason;
      signalProcessGroup(live.terminal.pid, 'SIGTERM');
      live.killTimer = setTimeout(() => signalProcessGroup(live.terminal.pid, 'SIGKILL'), this.options.stopGraceMs ?? 3_000);
      live.killTimer.unref();
    }
    await live.exited;
  }

  private stream(agentId: string): TerminalStream {
    let stream = this.streams.get(agentId);
    if (!stream) {
      stream = new TerminalStream();
      this.streams.set(agentId, stream);
    }
    return stream;
  }

  private scrollbackOf(agent: Agent): ScrollbackLog {
    return new ScrollbackLog(path.join(this.stores.projectDir(agent.projectId), 'agents', agent.id, 'scrollback.log'));
  }

  private detected(session: SessionRecord): DetectedState {
    const state = session.state === 'exited' ? 'ready' : session.state;
    return { state, needsInput: session.needsInput, limitResetsAt: session.limitResetsAt };
  }

  private changeSession(store: ProjectStore, sessionId: string, change: SessionChange): AgentSession {
    const session = publicSession(store.agents.updateSession(sessionId, change));
    this.announceSession(session);
    return session;
  }

  private announceSession(session: AgentSession): void {
    this.events.emit({ name: 'agentSessionChanged', seq: session.seq, projectId: session.projectId, session });
  }

  private announceAgent(agent: Agent): void {
    this.events.emit({ name: 'agentChanged', seq: agent.seq, projectId: agent.projectId, agentId: agent.id, agent });
  }

  private requireLive(agentId: string): LiveSession {
    const live = this.live.get(agentId);
    if (!live) {
      const { agent } = this.locate(agentId);
      fail('invalid-state', `${agent.name} is not running; start it first.`);
    }
    return live;
  }

  private locate(agentId: string): { store: ProjectStore; agent: Agent } {
    return locateAgent(this.projects, this.stores, agentId);
  }

}
