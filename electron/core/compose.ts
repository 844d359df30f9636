import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PROJECT_SETTINGS, type ProjectSettings } from '../../shared/entities/projects';
import type { SshLauncher } from '../../shared/machines';
import { accountMethods } from './accounts/accountMethods';
import { AccountPauses } from './accounts/accountPauses';
import { agentMethods } from './agents/agentMethods';
import { AgentService } from './agents/agentService';
import { toCoreApi, type CoreApi } from './api';
import { appSettingsMethods } from './appSettings/appSettingsMethods';
import { AppSettingsService } from './appSettings/appSettingsService';
import { attentionMethods } from './attention/attentionMethods';
import { HandledAttentionService } from './attention/handledAttention';
import { AutomationAnnouncer } from './automations/automationAnnouncer';
import { automationMethods } from './automations/automationMethods';
import { AutomationRunner, SYSTEM_CLOCK } from './automations/automationRunner';
import { AutomationService } from './automations/automationService';
import { AutomationTriggers } from './automations/automationTriggers';
import { AutomationWork } from './automations/automationWork';
import { GitHubTriggers } from './automations/gitHubTriggers';
import { reconcileProjects } from './boot';
import { restrictAgents } from './callers/agentAccess';
import { callerMethods } from './callers/callerMethods';
import type { CommandLineToolSource } from './commandLineTool/commandLineTool';
import { commandLineToolMethods } from './commandLineTool/commandLineToolMethods';
import { commentMethods } from './comments/commentMethods';
import { CommentService } from './comments/commentService';
import { editorMethods } from './editor/editorMethods';
import { TerminalEditor } from './editor/terminalEditor';
import { DroverRequestError } from './errors';
import { EventBus } from './events/eventBus';
import { ForgeConnector } from './forge/forgeConnector';
import { forgeMethods } from './forge/forgeMethods';
import { ForgeTokens, TokenVault, forgeTokensIn, withoutForgeTokens, workEnvFor } from './forge/forgeTokens';
import { IssueService } from './forge/issueService';
import { PullRequestService } from './forge/pullRequestService';
import { Git } from './git/runner';
import { inboxMethods } from './inbox/inboxMethods';
import { MediatedInbox } from './inbox/mediatedInbox';
import { Locator } from './locate';
import { machineMethods } from './machines/machineMethods';
import { MachineService } from './machines/machineService';
import { mergeQueueMethods } from './mergeQueue/mergeQueueMethods';
import { MergeQueueService } from './mergeQueue/mergeQueueService';
import { ConflictNotices } from './overlaps/conflictNotices';
import { OverlapFollower } from './overlaps/overlapFollower';
import { overlapMethods } from './overlaps/overlapMethods';
import { OverlapRadar } from './overlaps/overlapRadar';
import { OverlapTeller } from './overlaps/overlapTeller';
import { patternSandbox } from './patterns/patternSandbox';
import { writeCliShim } from './profiles/cliShim';
import { profileMethods } from './profiles/profileMethods';
import { ProfileRegistry } from './profiles/profileRegistry';
import { projectMethods } from './projects/projectMethods';
import { ProjectRegistry } from './projects/projectRegistry';
import { sessionMethods } from './sessions/sessionMethods';
import { SessionService } from './sessions/sessionService';
import { APP_MIGRATIONS } from './storage/appSchema';
import { AppSettingsTable } from './storage/appSettingsTable';
import { DefinitionTable } from './storage/definitionTable';
import { ProjectStores } from './storage/projectStores';
import { ProjectTable } from './storage/projectTable';
import { damagedMessage, findDamaged, openDatabase, type OpenedDatabase } from './storage/sqlite';
import { connectTaskCompletionSink } from './tasks/taskCompletionSink';
import { taskMethods } from './tasks/taskMethods';
import { outputTail } from './tasks/taskResultText';
import { TaskService } from './tasks/taskService';
import { AgentComparison } from './turns/agentComparison';
import { Checkpoints } from './turns/checkpoints';
import { turnMethods } from './turns/turnMethods';
import { TurnService } from './turns/turnService';
import { AgentWakeService, DEFAULT_WAKE_OPTIONS, type WakeOptions } from './wake/agentWakeService';
import { WakeChannels } from './wake/wakeChannels';
import { channelOrTypedWakes } from './wake/wakeDelivery';
import { wakeMethods } from './wake/wakeMethods';
import { PortBlocks } from './workspaces/portBlocks';
import { WorktreeHolds } from './workspaces/worktreeHolds';
import { WorktreeCheckouts } from './worktrees/worktreeCheckouts';
import { worktreeMethods } from './worktrees/worktreeMethods';
import { WorktreeService } from './worktrees/worktreeService';

export interface CoreOptions {
  dataDir: string;
  version: string;
  /** Where the host's local socket listens; reported by getStatus. */
  socketPath: string;
  /** better-sqlite3 built for the runtime's ABI (Electron's), when node_modules' build cannot load. */
  sqliteNativeBinding?: string;
  settingsDefaults?: Partial<ProjectSettings>;
  /** The environment agents and tasks start from, and where agent CLIs are looked up (PATH). */
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** argv that runs this Drover's CLI (e.g. node + cli.js); agent terminals get it as `drover`. */
  cliCommand?: readonly string[];
  /** Extra env for that command (Electron needs ELECTRON_RUN_AS_NODE=1). */
  cliEnv?: Record<string, string>;
  /** What "Install command line tool" installs (default: a launcher running `cliCommand`). */
  commandLineTool?: CommandLineToolSource;
  agentStopGraceMs?: number;
  wake?: Partial<Omit<WakeOptions, 'log'>>;
  /**
   * The folder of port-block leases every Drover of this user shares (default: $DROVER_PORT_BLOCKS_DIR,
   * else ~/.local/state/drover/port-blocks), so no two live worktrees get the same ports.
   */
  portBlocksDir?: string;
  /** This Drover's host as installed on other machines (dist/remote-host), when built with it. */
  remoteHostBundleDir?: string;
  /** How the host runs ssh to reach other machines; without it, adding one is refused. */
  launchSsh?: SshLauncher;
}

/** How soon an open pull request is looked at again after a change (DROVER_GITHUB_POLL_MS; it backs off from there). */
const DEFAULT_FORGE_POLL_MS = 20_000;

function forgePollMs(env: NodeJS.ProcessEnv): number {
  const configured = Number(env.DROVER_GITHUB_POLL_MS);
  return Number.isInteger(configured) && configured >= 100 ? configured : DEFAULT_FORGE_POLL_MS;
}

export interface Core {
  api: CoreApi;
  events: EventBus;
  /** Starts queued tasks and pending wakes; hosts call it once they serve clients. */
  startWork(): void;
  close(): Promise<void>;
}

function hasProjectData(dataDir: string): boolean {
  try {
    return fs.readdirSync(path.join(dataDir, 'projects')).length > 0;
  } catch {
    return false;
  }
}

/** SQLite reports damage found mid-query without saying where: find and name the damaged file. */
function nameDamagedDatabase(error: unknown, databases: readonly OpenedDatabase[]): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !(code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))) return error;
  const damaged = findDamaged(databases);
  return damaged ? new DroverRequestError('storage-unavailable', damagedMessage(damaged.description, damaged.file, code)) : error;
}

function defaultPortBlocksDir(env: NodeJS.ProcessEnv): string {
  if (env.DROVER_PORT_BLOCKS_DIR) return path.resolve(env.DROVER_PORT_BLOCKS_DIR);
  const stateHome = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(stateHome, 'drover', 'port-blocks');
}

/**
 * Builds the domain for one data dir: opens the app database, wires the services, reconciles every
 * project's work state (before anything is served), and returns the API every door adapts.
 */
export function createCore(options: CoreOptions): Core {
  const log = options.log ?? (() => {});
  const env = options.env ?? process.env;
  const events = new EventBus((error) => log(`event listener failed: ${String(error)}`));
  const appFile = path.join(options.dataDir, 'app.sqlite');
  const appDb = openDatabase(appFile, {
    migrations: APP_MIGRATIONS,
    description: 'app database',
    // Missing on a first start; missing beside projects' data, the registry of those projects was lost.
    create: !hasProjectData(options.dataDir),
    whenMissing: 'it lists your projects and profiles. Restore it from a backup, or move it and the projects folder aside to start afresh.',
    nativeBinding: options.sqliteNativeBinding,
  });
  const projects = new ProjectRegistry(new ProjectTable(appDb), events);
  const stores = new ProjectStores({
    dataDir: options.dataDir,
    nativeBinding: options.sqliteNativeBinding,
    settingsDefaults: { ...DEFAULT_PROJECT_SETTINGS, ...options.settingsDefaults },
  });
  const locator = new Locator(projects, stores);
  // The host's GitHub tokens stay in the host unless a project shares them with its agents and tasks.
  const workEnv = workEnvFor(env);
  const holds = new WorktreeHolds();
  const tasks = new TaskService(locator, projects, stores, events, (settings) => ({ TERM: 'xterm-256color', ...workEnv(settings) }), holds, log);
  const profiles = new ProfileRegistry(new DefinitionTable(appDb, 'profiles'), env);
  const cliCommand = options.cliCommand ?? [process.execPath, process.argv[1] ?? 'drover'];
  const inbox = new MediatedInbox(locator, projects, stores, events);
  const ports = new PortBlocks(options.portBlocksDir ?? defaultPortBlocksDir(env));
  // Nor do they reach what Drover's git runs in a worktree (a filter of the person's config): only a
  // push gets them, for a credential helper that reads them (gh's).
  const git = new Git(withoutForgeTokens(env), forgeTokensIn(env));
  const checkouts = new WorktreeCheckouts(git, projects);
  const worktrees = new WorktreeService(locator, projects, stores, events, inbox, git, checkouts, ports, tasks, { log });
  const appSettings = new AppSettingsService(new AppSettingsTable(appDb), events);
  const accountPauses = new AccountPauses(appSettings, profiles);
  const checkpoints = new Checkpoints(git);
  const radar = new OverlapRadar(projects, stores, git, checkouts, checkpoints, log);
  const conflictNotices = new ConflictNotices(stores, events);
  const overlapFollower = new OverlapFollower(radar, stores, events, worktrees, conflictNotices, { debounceMs: 300, log });
  const turns = new TurnService(locator, projects, stores, events, inbox, git, checkouts, checkpoints, holds, { log });
  const sessions = new SessionService(
    locator,
    projects,
    stores,
    profiles,
    events,
    {
      socketPath: options.socketPath,
      shimDir: writeCliShim(path.join(options.dataDir, 'bin'), cliCommand, options.cliEnv),
      baseEnv: workEnv,
      ...(options.agentStopGraceMs !== undefined ? { stopGraceMs: options.agentStopGraceMs } : {}),
      scrollbackLines: appSettings.read().settings.terminalScrollbackLines,
      onPrompt: (agentId, prompt) => turns.notePrompt(agentId, prompt),
      checkpointed: (agentId) => turns.settled(agentId),
      isAccountPaused: (profileId) => accountPauses.isPaused(profileId),
      log,
    },
    worktrees,
  );
  const agents = new AgentService(locator, projects, stores, profiles, sessions, worktrees, events);
  const tokens = new ForgeTokens(env, new TokenVault(path.join(options.dataDir, 'forge-tokens.json')));
  const connector = new ForgeConnector(projects, stores, git, tokens, { env, userAgent: `drover/${options.version}`, log });
  const pullRequests = new PullRequestService(locator, events, inbox, git, worktrees, agents, connector, { pollMs: forgePollMs(env), log });
  const issues = new IssueService(projects, stores, events, inbox, profiles, agents, sessions, connector);
  const wakeChannels = new WakeChannels();
  const wakeDelivery = channelOrTypedWakes(wakeChannels, sessions, log);
  const wakes = new AgentWakeService(locator, stores, events, inbox, wakeDelivery, accountPauses, { ...DEFAULT_WAKE_OPTIONS, ...options.wake, log });
  const automationAnnouncer = new AutomationAnnouncer(events, stores);
  const automationRunner = new AutomationRunner(
    new AutomationWork(tasks, inbox, stores, agents, sessions, (profileId) => accountPauses.whenFree(profileId, events)),
    SYSTEM_CLOCK,
    (projectId, automation) => {
      log(`automation ${automation.name} of ${projectId} paused itself: ${automation.pausedReason ?? ''}`);
      automationAnnouncer.changed(projectId, automation.id);
    },
  );
  const automationTriggers = new AutomationTriggers(
    {
      ids: () => stores.usable(projects.list().projects.map((project) => project.id)).map((store) => store.projectId),
      automations: (projectId) => stores.get(projectId).automations,
      task: (projectId, taskId) => stores.get(projectId).tasks.get(taskId),
      tail: (task) => outputTail(task.logPath),
      agentName: (projectId, agentId) => stores.get(projectId).agents.get(agentId)?.name,
    },
    automationRunner,
    SYSTEM_CLOCK,
    log,
  );
  const gitHubTriggers = new GitHubTriggers(
    { ids: () => stores.usable(projects.list().projects.map((project) => project.id)).map((store) => store.projectId), automations: (projectId) => stores.get(projectId).automations },
    {
      issues: async (projectId, labels) => (await connector.connect(projectId)).forge.issues({ labels }),
      issue: async (projectId, number) => (await connector.connect(projectId)).forge.issue(number),
      failedChecks: async (projectId, branch) => (await (await connector.connect(projectId)).forge.checks(branch)).filter((check) => check.state === 'failed'),
      failureDetails: async (projectId, check) => (await connector.connect(projectId)).forge.failureDetails(check),
    },
    automationRunner,
    SYSTEM_CLOCK,
    forgePollMs(env),
    log,
  );
  const mergeQueue = new MergeQueueService(locator, projects, stores, events, worktrees, tasks, inbox, log);
  // Every subscription to the bus is made here, before the boot reconciliation's events, and released on close.
  const subscriptions = [
    turns.listen(),
    events.onEvent((event) => {
      if (event.name === 'appSettingsChanged') sessions.setScrollbackLines(event.settings.terminalScrollbackLines);
    }),
    connectTaskCompletionSink(events, stores, inbox),
    pullRequests.listen(),
    wakes.listen(),
    overlapFollower.listen(),
    events.onEvent((event) => {
      if (event.name === 'backgroundTaskChanged') automationTriggers.taskChanged(event.projectId, event.task);
      if (event.name === 'agentForgeChanged') automationTriggers.forgeChanged(event.projectId, event.link);
      if (event.name === 'agentSessionChanged') automationTriggers.sessionChanged(event.projectId, event.session);
    }),
    mergeQueue.listen(),
  ];

  const stopReportingPatterns = patternSandbox.onRunaway((_source, reason) => log(`screen pattern stopped: ${reason}`));

  reconcileProjects({ projects, stores, sessions, wakes, inbox, worktrees, mergeQueue, events, log });

  const handlers = {
    ...callerMethods(sessions, projects, stores, locator),
    ...projectMethods(
      projects,
      stores,
      [tasks, sessions, worktrees, pullRequests, turns, mergeQueue, conflictNotices],
      { version: options.version, dataDir: options.dataDir, socketPath: options.socketPath },
      (projectId) => conflictNotices.list(projectId),
    ),
    ...taskMethods(tasks, events),
    ...profileMethods(profiles),
    ...agentMethods(agents),
    ...sessionMethods(sessions),
    ...inboxMethods(inbox),
    ...wakeMethods(wakes, wakeChannels, log),
    ...appSettingsMethods(appSettings),
    ...accountMethods(accountPauses, locator),
    ...commandLineToolMethods(options.commandLineTool ?? { kind: 'launcher', command: cliCommand, ...(options.cliEnv ? { env: options.cliEnv } : {}) }, env, options.dataDir),
    ...worktreeMethods(worktrees),
    ...overlapMethods(radar, new OverlapTeller(projects, stores, radar, inbox)),
    ...forgeMethods(connector, pullRequests, issues),
    ...turnMethods(turns, new AgentComparison(locator, git, checkouts, checkpoints)),
    ...commentMethods(new CommentService(locator, events, inbox)),
    ...attentionMethods(new HandledAttentionService(projects, stores, events)),
    ...machineMethods(new MachineService(new DefinitionTable(appDb, 'machines'), options.launchSsh, options.remoteHostBundleDir)),
    ...automationMethods(
      new AutomationService(
        projects,
        stores,
        profiles,
        automationRunner,
        automationTriggers,
        SYSTEM_CLOCK,
        async (projectId) => {
          await connector.connect(projectId);
        },
        automationAnnouncer,
      ),
    ),
    ...mergeQueueMethods(mergeQueue),
    ...editorMethods(projects, stores, locator, appSettings, new TerminalEditor(agents, sessions, stores, env), withoutForgeTokens(env)),
  };
  // Agents' connections are held to their own project and inbox; the person's are not.
  const api = toCoreApi(restrictAgents(handlers, locator), (error) =>
    nameDamagedDatabase(error, [{ db: appDb, file: appFile, description: 'app database' }, ...stores.opened()]),
  );

  let closed = false;
  return {
    api,
    events,
    startWork: () => {
      for (const project of projects.list().projects) {
        try {
          tasks.pump(project.id);
        } catch (error) {
          log(`could not start queued tasks of ${project.id}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      wakes.startAll();
      pullRequests.startAll();
      overlapFollower.startAll(projects.list().projects.map((project) => project.id));
      automationTriggers.start();
      gitHubTriggers.start();
      mergeQueue.startAll();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      stopReportingPatterns();
      wakes.stop();
      pullRequests.stop();
      overlapFollower.close();
      automationTriggers.stop();
      gitHubTriggers.stop();
      mergeQueue.stop();
      worktrees.close();
      await Promise.all([tasks.shutdown(), sessions.shutdown()]);
      // Tasks and sessions ending above still reach the listeners (a task's result goes to its owner's inbox).
      for (const unsubscribe of subscriptions) unsubscribe();
      stores.closeAll();
      appDb.close();
    },
  };
}
