import fs from 'node:fs';
import path from 'node:path';
import type { ProjectSettings } from '../../../shared/entities/projects';
import { AgentStore } from './agentStore';
import { AutomationStore } from './automationStore';
import { ForgeLinkStore } from './forgeLinkStore';
import { FormerAgentStore } from './formerAgentStore';
import { HandledAttentionStore } from './handledAttentionStore';
import { CommentStore } from './commentStore';
import { InboxStore } from './inboxStore';
import { MergeQueueStore } from './mergeQueueStore';
import { PROJECT_MIGRATIONS, SEQ_TABLES } from './projectSchema';
import { SeqCounter } from './seqCounter';
import { SessionStore } from './sessionStore';
import { SettingsStore } from './settingsStore';
import { fail } from '../errors';
import { openDatabase, type OpenedDatabase, type SqliteDatabase } from './sqlite';
import { TaskStore } from './taskStore';
import { TurnStore } from './turnStore';
import { WakeStore } from './wakeStore';
import { WorktreeStore } from './worktreeStore';

export interface ProjectStore {
  projectId: string;
  db: SqliteDatabase;
  /** The state database's path. */
  file: string;
  seq: SeqCounter;
  /** Runs `work` in one transaction; seqs it took are given back if it rolls back. */
  transaction<T>(work: () => T): T;
  tasks: TaskStore;
  agents: AgentStore;
  sessions: SessionStore;
  inbox: InboxStore;
  wakes: WakeStore;
  worktrees: WorktreeStore;
  forgeLinks: ForgeLinkStore;
  formerAgents: FormerAgentStore;
  turns: TurnStore;
  comments: CommentStore;
  handledAttention: HandledAttentionStore;
  automations: AutomationStore;
  mergeQueue: MergeQueueStore;
  settings: SettingsStore;
  logsDir: string;
}

export interface ProjectStoresOptions {
  dataDir: string;
  nativeBinding?: string;
  settingsDefaults: ProjectSettings;
}

/**
 * Routes a project id to its own work-state database, opened on first use and kept open until the
 * project is removed or the app quits.
 */
export class ProjectStores {
  private readonly open = new Map<string, ProjectStore>();

  constructor(private readonly options: ProjectStoresOptions) {}

  projectDir(projectId: string): string {
    return path.join(this.options.dataDir, 'projects', projectId);
  }

  stateFile(projectId: string): string {
    return path.join(this.projectDir(projectId), 'state.sqlite');
  }

  /**
   * The project's store. Its state database must exist: a registered project whose database is
   * missing or empty is reported (`data-missing`), never silently recreated, so the person can
   * restore it or choose to start empty (`createEmpty`).
   */
  get(projectId: string): ProjectStore {
    return this.open.get(projectId) ?? this.openStore(projectId, false);
  }

  /**
   * Creates a project's state database: for a project being added, or when a person chose to
   * start a project whose database was lost afresh. A database that holds anything is never
   * replaced.
   */
  createEmpty(projectId: string): ProjectStore {
    const file = this.stateFile(projectId);
    if (this.open.has(projectId) || (fs.existsSync(file) && fs.statSync(file).size > 0)) {
      fail('conflict', `The work state at ${file} is not empty; Drover never replaces it. Move it aside first to start the project empty.`);
    }
    return this.openStore(projectId, true);
  }

  private openStore(projectId: string, create: boolean): ProjectStore {
    const dir = this.projectDir(projectId);
    const file = this.stateFile(projectId);
    const db = openDatabase(file, {
      migrations: PROJECT_MIGRATIONS,
      description: `work state of project ${projectId}`,
      create,
      whenMissing: 'restore the file from a backup and try again, or choose Start empty for this project (its tasks, agents and inboxes start over).',
      ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}),
    });
    const seq = new SeqCounter(readMaxSeq(db));
    const store: ProjectStore = {
      projectId,
      db,
      file,
      seq,
      transaction: (work) => {
        const before = seq.current;
        try {
          return db.transaction(work)();
        } catch (error) {
          seq.reset(before);
          throw error;
        }
      },
      tasks: new TaskStore(db, projectId, seq),
      agents: new AgentStore(db, projectId, seq),
      sessions: new SessionStore(db, projectId, seq),
      inbox: new InboxStore(db, projectId, seq),
      wakes: new WakeStore(db, projectId, seq),
      worktrees: new WorktreeStore(db, projectId, seq),
      forgeLinks: new ForgeLinkStore(db, projectId, seq),
      formerAgents: new FormerAgentStore(db, projectId, seq),
      turns: new TurnStore(db, projectId, seq),
      comments: new CommentStore(db, projectId, seq),
      handledAttention: new HandledAttentionStore(db, seq),
      automations: new AutomationStore(db, seq),
      mergeQueue: new MergeQueueStore(db, projectId, seq),
      settings: new SettingsStore(db, this.options.settingsDefaults),
      logsDir: path.join(dir, 'logs'),
    };
    this.open.set(projectId, store);
    return store;
  }

  /** Every open project database, for naming the one SQLite later finds damaged. */
  opened(): OpenedDatabase[] {
    return [...this.open.values()].map((store) => ({ db: store.db, file: store.file, description: `work state of project ${store.projectId}` }));
  }

  /**
   * The stores of these projects that can be opened: one damaged project database must not make
   * every other project unreachable (opening it again reports why, for that project alone).
   */
  usable(projectIds: readonly string[]): ProjectStore[] {
    return projectIds.flatMap((projectId) => {
      try {
        return [this.get(projectId)];
      } catch {
        return [];
      }
    });
  }

  isOpen(projectId: string): boolean {
    return this.open.has(projectId);
  }

  close(projectId: string): void {
    this.open.get(projectId)?.db.close();
    this.open.delete(projectId);
  }

  closeAll(): void {
    for (const projectId of [...this.open.keys()]) this.close(projectId);
  }
}

function readMaxSeq(db: SqliteDatabase): number {
  const union = SEQ_TABLES.map((table) => `SELECT max(seq) AS seq FROM ${table}`).join(' UNION ALL ');
  const row = db.prepare<[], { seq: number | null }>(`SELECT max(seq) AS seq FROM (${union})`).get();
  return row?.seq ?? 0;
}
