import path from 'node:path';
import type { z } from 'zod';
import type { METHODS, MethodName, MethodResult } from '../../shared/contract';
import { DEFAULT_PROJECT_SETTINGS, type ProjectSettings } from '../../shared/entities';
import { AgentSessionService } from './agents/agentSessionService';
import { writeCliShim } from './agents/cliShim';
import { ProfileRegistry } from './agents/profileRegistry';
import { EventBus } from './events/eventBus';
import { MediatedInbox } from './inbox/mediatedInbox';
import { connectTaskCompletionSink, postMissingResults } from './inbox/taskCompletionSink';
import { AgentWakeService, DEFAULT_WAKE_OPTIONS, type WakeOptions } from './wake/agentWakeService';
import { ProjectRegistry } from './projects/projectRegistry';
import { APP_MIGRATIONS } from './storage/appSchema';
import { ProjectStores } from './storage/projectStores';
import { openDatabase, type SqliteDatabase } from './storage/sqlite';
import { reconcileTasks, type ProcessTable, type ReconcileReport } from './tasks/reconcile';
import { TaskService } from './tasks/taskService';

export interface CoreOptions {
  dataDir: string;
  version: string;
  /** Where the host's local socket listens; reported by getStatus. */
  socketPath: string;
  nativeBinding?: string;
  settingsDefaults?: Partial<ProjectSettings>;
  /** Environment given to task processes. */
  taskEnv?: Record<string, string>;
  log?: (line: string) => void;
  processTable?: ProcessTable;
  /** argv that runs this Drover's CLI (e.g. node + cli.js); agent terminals get it as `drover`. */
  cliCommand?: readonly string[];
  /** Extra env for that command (Electron needs ELECTRON_RUN_AS_NODE=1). */
  cliEnv?: Record<string, string>;
  agentStopGraceMs?: number;
  wake?: Partial<Omit<WakeOptions, 'log'>>;
}

/** Methods that depend on the connection (live output watches) are served by the host, not the core. */
export type ConnectionMethod =
  | 'watchTaskOutput'
  | 'unwatchTaskOutput'
  | 'attachAgentTerminal'
  | 'detachAgentTerminal'
  | 'ackAgentOutput'
  | 'awaitReply';
export type CoreMethod = Exclude<MethodName, ConnectionMethod>;
export type CoreApi = {
  [M in CoreMethod]: (params: z.output<(typeof METHODS)[M]['params']>) => MethodResult<M> | Promise<MethodResult<M>>;
};

export interface Core {
  api: CoreApi;
  events: EventBus;
  tasks: TaskService;
  agents: AgentSessionService;
  inbox: MediatedInbox;
  reconcileReports: ReconcileReport[];
  /** Starts queued tasks and pending wakes; hosts call it once they serve clients. */
  startWork(): void;
  close(): Promise<void>;
}

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

/**
 * Builds the domain for one data dir: opens the app database, reconciles every project's work state
 * (before anything is served), and returns the API every door adapts.
 */
export function createCore(options: CoreOptions): Core {
  const log = options.log ?? (() => {});
  const events = new EventBus((error) => log(`event listener failed: ${String(error)}`));
  const appDb: SqliteDatabase = openDatabase(path.join(options.dataDir, 'app.sqlite'), {
    migrations: APP_MIGRATIONS,
    description: 'app database',
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  const projects = new ProjectRegistry(appDb, events);
  const stores = new ProjectStores({
    dataDir: options.dataDir,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    settingsDefaults: { ...DEFAULT_PROJECT_SETTINGS, ...options.settingsDefaults },
  });
  const tasks = new TaskService(projects, stores, events, { TERM: 'xterm-256color', ...(options.taskEnv ?? inheritedEnv()) }, log);
  const profiles = new ProfileRegistry(appDb);
  const agents = new AgentSessionService(projects, stores, profiles, events, {
    socketPath: options.socketPath,
    shimDir: writeCliShim(path.join(options.dataDir, 'bin'), options.cliCommand ?? [process.execPath, process.argv[1] ?? 'drover'], options.cliEnv),
    baseEnv: process.env,
    ...(options.agentStopGraceMs !== undefined ? { stopGraceMs: options.agentStopGraceMs } : {}),
    log,
  });
  const inbox = new MediatedInbox(projects, stores, events);
  connectTaskCompletionSink(events, stores, inbox);
  const wakes = new AgentWakeService(projects, stores, events, inbox, agents, { ...DEFAULT_WAKE_OPTIONS, ...options.wake, log });

  const reconcileReports: ReconcileReport[] = [];
  for (const project of projects.list().projects) {
    try {
      const store = stores.get(project.id);
      // Sessions first: results of interrupted tasks must not find an agent that still looks ready.
      const endedSessions = agents.reconcile(store);
      const resumedWakes = wakes.reconcile(store);
      const { report, changed } = reconcileTasks(store.tasks, options.processTable);
      for (const task of changed) events.emit({ name: 'backgroundTaskChanged', seq: task.seq, projectId: task.projectId, task });
      postMissingResults(store, inbox);
      reconcileReports.push(report);
      log(
        `reconciled project ${project.name} (${project.id}): ${report.interrupted} interrupted, ${report.cancelled} cancelled, ` +
          `${report.killed} leftover process groups killed, ${report.queued} queued to start, ` +
          `${endedSessions} agent sessions ended by the restart, ${resumedWakes} wakes back to waiting`,
      );
    } catch (error) {
      log(`could not reconcile project ${project.name} (${project.id}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const api: CoreApi = {
    getStatus: () => ({
      version: options.version,
      dataDir: options.dataDir,
      socketPath: options.socketPath,
      projects: projects.list().projects,
    }),
    listProjects: () => projects.list(),
    addProject: ({ path: folder }) => projects.add(folder),
    renameProject: ({ projectId, name }) => projects.rename(projectId, name),
    removeProject: async ({ projectId }) => {
      projects.get(projectId);
      try {
        await Promise.all([tasks.stopProject(projectId, 'project-removed'), agents.stopProject(projectId)]);
        stores.close(projectId);
        projects.remove(projectId);
      } finally {
        tasks.projectClosed(projectId);
        agents.projectClosed(projectId);
      }
      return { projectId };
    },
    findProjectByPath: ({ path: folder }) => projects.findContaining(folder),
    getProjectSettings: ({ projectId }) => {
      projects.get(projectId);
      return stores.get(projectId).settings.get();
    },
    updateProjectSettings: ({ projectId, settings }) => {
      projects.get(projectId);
      const updated = stores.get(projectId).settings.update(settings);
      tasks.pump(projectId);
      return updated;
    },
    getWorkState: ({ projectId }) => {
      projects.get(projectId);
      const store = stores.get(projectId);
      return store.transaction(() => ({
        projectId,
        seq: store.seq.current,
        tasks: store.tasks.list(),
        agents: store.agents.list(),
        sessions: store.agents.latestSessions(),
        messages: store.inbox.messages(),
        wakes: store.inbox.visibleWakes(),
      }));
    },
    createTask: (params) => tasks.create(params),
    listTasks: ({ projectId, states }) => tasks.list(projectId, states),
    getTask: ({ taskId }) => tasks.get(taskId),
    cancelTask: ({ taskId }) => tasks.cancel(taskId),
    retryTask: ({ taskId }) => tasks.retry(taskId),
    readTaskOutput: ({ taskId, ...request }) => tasks.readOutput(taskId, request),
    listAgentProfiles: () => profiles.list(),
    saveAgentProfile: ({ profile }) => profiles.save(profile),
    deleteAgentProfile: ({ profileId }) => {
      profiles.remove(profileId);
      return { profileId };
    },
    createAgent: (params) => agents.createAgent(params),
    updateAgent: (params) => agents.updateAgent(params),
    removeAgent: async ({ agentId }) => {
      await agents.removeAgent(agentId);
      return { agentId };
    },
    startAgent: ({ agentId, resume }) => agents.start(agentId, resume),
    stopAgent: ({ agentId }) => agents.stop(agentId),
    restartAgent: ({ agentId, resume }) => agents.restart(agentId, resume),
    writeAgentInput: ({ agentId, data }) => {
      agents.write(agentId, data);
      return { agentId };
    },
    resizeAgent: ({ agentId, cols, rows }) => {
      agents.resize(agentId, cols, rows);
      return { agentId };
    },
    reportAgentHook: ({ agentId, event, externalSessionId }) => agents.hook(agentId, event, externalSessionId),
    listInbox: ({ agentId, unreadOnly }) => inbox.list(agentId, unreadOnly),
    markInboxRead: ({ agentId, messageIds }) => inbox.markRead(agentId, messageIds),
    sendMessage: ({ projectId, to, kind, body, fromAgentId }) => inbox.send({ projectId, to, kind, body, fromAgentId }),
    replyToMessage: ({ questionId, body, fromAgentId }) => inbox.reply({ questionId, body, fromAgentId }),
    wakeAgent: async ({ agentId }) => ({ agentId, delivered: await wakes.wakeNow(agentId) }),
    holdAgentWakes: ({ agentId, hold }) => ({ agentId, held: wakes.hold(agentId, hold).wakesHeld }),
  };

  let closed = false;
  return {
    api,
    events,
    tasks,
    agents,
    inbox,
    reconcileReports,
    startWork: () => {
      for (const project of projects.list().projects) {
        try {
          tasks.pump(project.id);
        } catch (error) {
          log(`could not start queued tasks of ${project.id}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      wakes.startAll();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      wakes.stop();
      await Promise.all([tasks.shutdown(), agents.shutdown()]);
      stores.closeAll();
      appDb.close();
    },
  };
}
