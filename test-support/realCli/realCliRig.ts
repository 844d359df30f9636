import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Terminal } from '@xterm/headless';
import type { Agent } from '../../shared/entities/agents';
import type { Project } from '../../shared/entities/projects';
import type { AgentSession } from '../../shared/entities/sessions';
import type { DroverEvent } from '../../shared/events';
import { BUILT_IN_PROFILES } from '../../electron/core/profiles/builtInProfiles';
import { readScreen, showsEmptyPrompt } from '../../electron/core/sessions/stateDetector';
import { startHost, type DroverHost } from '../../electron/host/host';
import { attachTerminal } from '../attachedTerminal';
import { CLI_PATH, REPO_ROOT } from '../buildOnce';
import { makeTempDir, removeDir } from '../tempDir';
import { waitFor } from '../waitFor';
import { agentCliBinDir } from './agentCliBin';
import type { ScriptedModelServer } from './scriptedModelServer';

/** What the rig needs to know of one real agent CLI. */
export interface AgentCliFixture {
  /** The built-in Drover profile that runs it. */
  profileId: 'claude' | 'codex' | 'gemini' | 'copilot' | 'opencode';
  version: string;
  startModel(): Promise<{ server: ScriptedModelServer; url: string }>;
  /** Prepares an isolated HOME and returns the env the CLI needs (the model server, offline switches). */
  prepareHome(home: string, options: { modelUrl: string; firstRun: boolean; projectDir: string }): { env: Record<string, string> };
}

const COLS = 120;
const ROWS = 32;

/** A person's view of an agent pane: the terminal stream fed into a headless xterm of the same size. */
class AttachedScreen {
  private readonly terminal = new Terminal({ cols: COLS, rows: ROWS, scrollback: 2000, allowProposedApi: true });
  private written = Promise.resolve();
  private detach: (() => void) | undefined;
  private lastOutputAt = Date.now();

  /** Attaches as a window does: the host's snapshot of the terminal, then the chunks after it. */
  async attach(host: DroverHost, agentId: string): Promise<void> {
    this.detach?.();
    const attachment = await attachTerminal(
      host.core.api,
      agentId,
      {
        snapshot: (text) => {
          this.terminal.reset();
          this.feed(text);
        },
        chunk: (data) => this.feed(data),
      },
      { cols: COLS, rows: ROWS },
    );
    this.detach = attachment.detach;
  }

  /** The visible screen, one line per row, trailing blanks trimmed. */
  async text(): Promise<string> {
    await this.written;
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++) lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\s+$/, '');
  }

  /** Whether the program drew nothing for `ms`. */
  quietFor(ms: number): boolean {
    return Date.now() - this.lastOutputAt >= ms;
  }

  dispose(): void {
    this.detach?.();
    this.terminal.dispose();
  }

  private feed(data: string): void {
    this.lastOutputAt = Date.now();
    this.written = this.written.then(() => new Promise<void>((resolve) => this.terminal.write(data, resolve)));
  }
}

/**
 * One real agent CLI running as a Drover agent, against its fake model server, in a private HOME:
 * the real host, the built-in profile, real PTYs. Tests drive it as a person would (typing into the
 * pane, answering dialogs) and read what Drover concluded (the session's state) and what reached
 * the model (the server's recorded requests).
 */
export class RealCliRig {
  readonly events: DroverEvent[] = [];
  readonly screen = new AttachedScreen();
  host!: DroverHost;
  project!: Project;
  agent!: Agent;

  private constructor(
    readonly fixture: AgentCliFixture,
    readonly dir: string,
    readonly model: ScriptedModelServer,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static async start(fixture: AgentCliFixture, options: { firstRun: boolean }): Promise<RealCliRig> {
    const dir = makeTempDir(`drover-${fixture.profileId}-`);
    const home = path.join(dir, 'home');
    const projectDir = path.join(dir, 'project');
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(projectDir, { recursive: true });
    fs.writeFileSync(path.join(projectDir, 'README.md'), '# A project an agent works on\n');
    // A git repository, as most projects are (Codex asks to trust only those).
    execFileSync('git', ['init', '-q', projectDir]);
    const { server, url } = await fixture.startModel();
    const { env } = fixture.prepareHome(home, { modelUrl: url, firstRun: options.firstRun, projectDir });
    const rig = new RealCliRig(fixture, dir, server, {
      ...personalEnv(),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      ...env,
      HOME: home,
      PATH: [agentCliBinDir(), process.env.PATH].filter(Boolean).join(path.delimiter),
    });
    await rig.boot();
    rig.project = await rig.host.core.api.addProject({ path: projectDir });
    rig.agent = await rig.host.core.api.createAgent({ projectId: rig.project.id, name: `${fixture.profileId}-agent`, role: '', profileId: fixture.profileId });
    await rig.screen.attach(rig.host, rig.agent.id);
    return rig;
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  async startAgent(resume = false): Promise<AgentSession> {
    return this.host.core.api.startAgent({ agentId: this.agent.id, resume });
  }

  async session(): Promise<AgentSession | undefined> {
    return (await this.host.core.api.getWorkState({ projectId: this.project.id })).sessions.find((s) => s.agentId === this.agent.id);
  }

  /** Every state the agent's sessions went through, in order. */
  states(): string[] {
    return sessionStates(this.events, this.agent.id);
  }

  /** What a failed wait should show: the states seen, the agent's wake, and the screen. */
  async diagnosis(): Promise<string> {
    const wakes = (await this.host.core.api.getWorkState({ projectId: this.project.id })).wakes.filter((w) => w.agentId === this.agent.id);
    return `states: ${this.states().join(' > ')}\nwakes: ${JSON.stringify(wakes)}\nscreen:\n${await this.screen.text()}`;
  }

  async waitForSession(match: (session: AgentSession) => boolean, what: string, timeoutMs = 60_000): Promise<AgentSession> {
    try {
      return await waitFor(async () => {
        const session = await this.session();
        return session && match(session) ? session : undefined;
      }, what, timeoutMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await this.diagnosis()}`, { cause: error });
    }
  }

  /** Ready by Drover's reading, and the empty prompt drawn on the screen a person sees (nothing busy on it). */
  async waitForReady(what: string, timeoutMs = 60_000): Promise<AgentSession> {
    const session = await this.waitForSession((s) => s.state === 'ready' && !s.needsInput, what, timeoutMs);
    try {
      await waitFor(async () => showsEmptyPrompt(readScreen(await this.screen.text(), this.profile())), `${what}: the empty prompt on screen`, timeoutMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await this.diagnosis()}`, { cause: error });
    }
    return session;
  }

  /** The profile's empty-prompt pattern, as a RegExp. */
  promptPattern(): RegExp {
    return new RegExp(this.profile().promptPattern ?? '$^', 'm');
  }

  private profile() {
    const profile = BUILT_IN_PROFILES.find((p) => p.id === this.fixture.profileId);
    if (!profile) throw new Error(`no built-in profile ${this.fixture.profileId}`);
    return profile;
  }

  /** Whether the screen a person sees shows a dialog, by the profile's patterns. */
  async showsDialog(): Promise<boolean> {
    return readScreen(await this.screen.text(), this.profile()).dialog;
  }

  /** The CLI's limit line drawn (a hook may report the limit before the screen shows it). */
  async waitForLimitLine(what: string, timeoutMs = 30_000): Promise<void> {
    try {
      await waitFor(async () => readScreen(await this.screen.text(), this.profile()).limitLines.length > 0, `${what}: a limit line on screen`, timeoutMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await this.diagnosis()}`, { cause: error });
    }
  }

  /** A dialog drawn on the screen a person sees (the CLI may report it before it draws it). */
  async waitForDialog(what: string, timeoutMs = 60_000): Promise<string> {
    const dialog = this.profile().needsInputPattern;
    if (!dialog) throw new Error(`${this.fixture.profileId} has no dialog pattern`);
    return this.waitForScreen(new RegExp(dialog, 'm'), what, timeoutMs);
  }

  async waitForScreen(pattern: RegExp, what: string, timeoutMs = 60_000): Promise<string> {
    try {
      return await waitFor(async () => {
        const text = await this.screen.text();
        return pattern.test(text) ? text : undefined;
      }, what, timeoutMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nscreen:\n${await this.screen.text()}`, { cause: error });
    }
  }

  /**
   * Waits until the program has drawn nothing for a moment, as a person reads a screen before
   * answering it. Codex 0.171.0 exits ("timed out discarding buffered terminal input") when a lone
   * Esc arrives while it drains typeahead on entering a dialog, within ~0.1 s of drawing it.
   */
  async waitForStillScreen(what: string, quietMs = 500, timeoutMs = 30_000): Promise<void> {
    try {
      await waitFor(() => this.screen.quietFor(quietMs), `${what}: the screen still for ${quietMs} ms`, timeoutMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await this.diagnosis()}`, { cause: error });
    }
  }

  /** Types as a person at the pane would. */
  async type(data: string): Promise<void> {
    await this.host.core.api.writeAgentInput({ agentId: this.agent.id, data });
  }

  /**
   * Types a prompt and presses Enter a moment later, as a person does (CLIs take a fast Enter as a
   * newline). Returns how many states the session had gone through when Enter went, so a test can
   * look only at what the turn did (Codex 0.171.0 shows itself working for a moment after its first
   * idle prompt, before any turn).
   */
  async submit(text: string): Promise<number> {
    const typed = new RegExp(text.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    for (let attempt = 1; ; attempt++) {
      await this.type(text);
      try {
        await this.waitForScreen(typed, 'the typed text on screen', 10_000);
        break;
      } catch (error) {
        // A CLI still loading (Gemini CLI right after it resumed a conversation) can drop the keys,
        // and a person types again; text that showed late is never typed twice.
        if (attempt === 3) throw error;
        if (typed.test(await this.screen.text())) break;
      }
    }
    await this.waitForStillScreen('the typed text drawn', 300);
    const statesBeforeEnter = this.states().length;
    await this.type('\r');
    return statesBeforeEnter;
  }

  /**
   * Keeps the screen as a fixture for the detector's unit tests when DROVER_RECORD_SCREENS is set
   * (test-support/realCli/screens/<profile>-<version>/<name>.txt).
   */
  async record(name: string): Promise<string> {
    const text = await this.screen.text();
    if (process.env.DROVER_RECORD_SCREENS) {
      const folder = path.join(REPO_ROOT, 'test-support', 'realCli', 'screens', `${this.fixture.profileId}-${this.fixture.version}`);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `${name}.txt`), `${text}\n`);
    }
    return text;
  }

  /** The host goes away (its agent with it) and comes back on the same data dir. */
  async restartHost(): Promise<void> {
    await this.host.close();
    await this.boot();
    await this.screen.attach(this.host, this.agent.id);
  }

  async close(): Promise<void> {
    this.screen.dispose();
    await this.host.close();
    await this.model.close();
    removeDir(this.dir);
  }

  private async boot(): Promise<void> {
    this.host = await startHost({ dataDir: this.dataDir, version: 'test', cliCommand: [process.execPath, CLI_PATH], env: this.env });
    this.host.core.events.onEvent((event) => this.events.push(event));
  }
}

/**
 * What a person's login environment holds, without the test runner's own variables (NODE_ENV=test,
 * VITEST, …), which some CLIs read as a request for debug output.
 */
function personalEnv(): NodeJS.ProcessEnv {
  const kept = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR'];
  return Object.fromEntries(kept.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
}

function describeSession(session: AgentSession): string {
  return session.needsInput ? `${session.state}(needs input)` : session.state;
}

/** Every state an agent's sessions went through, in order, as the host's events said. */
export function sessionStates(events: readonly DroverEvent[], agentId: string): string[] {
  return events.flatMap((e) => (e.name === 'agentSessionChanged' && e.session.agentId === agentId ? [describeSession(e.session)] : []));
}
