import path from 'node:path';
import type { Worktree, WorktreeState } from '../../../shared/entities/worktrees';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface WorktreeRow {
  agent_id: string;
  path: string;
  subdir: string;
  branch: string;
  parent_branch: string;
  base_commit: string;
  state: WorktreeState;
  owns_folder: number;
  owns_branch: number;
  port_base: number | null;
  changed_at: number | null;
  created_at: number;
  seq: number;
  operation: WorktreeOperation['kind'] | null;
  operation_branch_tip: string | null;
  operation_onto: string | null;
}

/** A merge or removal under way (journalled so that the boot after a crash can finish or undo it). */
export type WorktreeOperation = { kind: 'merging'; branchTip: string; onto: string } | { kind: 'removing' };

export interface NewWorktree {
  agentId: string;
  path: string;
  /** The project's folder relative to its repository's root ('' when the project is the root). */
  subdir: string;
  branch: string;
  parentBranch: string;
  baseCommit: string;
  ownsFolder: boolean;
  ownsBranch: boolean;
  createdAt: number;
}

export type WorktreeChange = Partial<Pick<Worktree, 'state' | 'parentBranch' | 'baseCommit' | 'portBase' | 'changedAt'>>;

/** The agents' worktrees of one project. */
export class WorktreeStore {
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      all: db.prepare<[], WorktreeRow>('SELECT * FROM worktrees ORDER BY created_at, rowid'),
      byAgent: db.prepare<[string], WorktreeRow>('SELECT * FROM worktrees WHERE agent_id = ?'),
      insert: db.prepare(
        `INSERT INTO worktrees (agent_id, path, subdir, branch, parent_branch, base_commit, state, owns_folder, owns_branch, created_at, seq)
         VALUES (@agentId, @path, @subdir, @branch, @parentBranch, @baseCommit, 'creating', @ownsFolder, @ownsBranch, @createdAt, @seq)`,
      ),
      update: db.prepare(
        `UPDATE worktrees SET state = @state, parent_branch = @parentBranch, base_commit = @baseCommit, port_base = @portBase,
           changed_at = @changedAt, seq = @seq WHERE agent_id = @agentId`,
      ),
      remove: db.prepare('DELETE FROM worktrees WHERE agent_id = ?'),
      journal: db.prepare('UPDATE worktrees SET operation = @kind, operation_branch_tip = @branchTip, operation_onto = @onto WHERE agent_id = @agentId'),
    };
  }

  list(): Worktree[] {
    return this.statements.all.all().map((row) => this.toWorktree(row));
  }

  get(agentId: string): Worktree | undefined {
    const row = this.statements.byAgent.get(agentId);
    return row && this.toWorktree(row);
  }

  /** Journals a worktree about to be made: state 'creating' until `update` marks it ready. */
  insert(worktree: NewWorktree): Worktree {
    this.statements.insert.run({
      ...worktree,
      ownsFolder: worktree.ownsFolder ? 1 : 0,
      ownsBranch: worktree.ownsBranch ? 1 : 0,
      seq: this.seq.next(),
    });
    return this.get(worktree.agentId) as Worktree;
  }

  update(agentId: string, change: WorktreeChange): Worktree {
    const current = this.get(agentId);
    if (!current) throw new Error(`No worktree for agent ${agentId}`);
    this.statements.update.run({ ...current, ...change, agentId, seq: this.seq.next() });
    return this.get(agentId) as Worktree;
  }

  /** Journals the operation under way (null: none). Clients do not see it, so no seq is spent. */
  journalOperation(agentId: string, operation: WorktreeOperation | null): void {
    const tips = operation?.kind === 'merging' ? { branchTip: operation.branchTip, onto: operation.onto } : { branchTip: null, onto: null };
    this.statements.journal.run({ agentId, kind: operation?.kind ?? null, ...tips });
  }

  operationOf(agentId: string): WorktreeOperation | null {
    const row = this.statements.byAgent.get(agentId);
    if (!row?.operation) return null;
    if (row.operation === 'removing') return { kind: 'removing' };
    return { kind: 'merging', branchTip: row.operation_branch_tip ?? '', onto: row.operation_onto ?? '' };
  }

  /** Forgets the worktree; returns the seq of the removal. */
  remove(agentId: string): number {
    this.statements.remove.run(agentId);
    return this.seq.next();
  }

  private toWorktree(row: WorktreeRow): Worktree {
    return {
      agentId: row.agent_id,
      projectId: this.projectId,
      path: row.path,
      folder: row.subdir ? path.join(row.path, row.subdir) : row.path,
      branch: row.branch,
      parentBranch: row.parent_branch,
      baseCommit: row.base_commit,
      state: row.state,
      ownsFolder: row.owns_folder === 1,
      ownsBranch: row.owns_branch === 1,
      portBase: row.port_base,
      changedAt: row.changed_at,
      createdAt: row.created_at,
      seq: row.seq,
    };
  }
}
