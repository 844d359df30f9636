import { ForgeIssueRefSchema, PullRequestSchema, type ForgeLink } from '../../../shared/forge';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface ForgeLinkRow {
  agent_id: string;
  issue: string | null;
  pull_request: string | null;
  checks_sent_for: string | null;
  sent_comment_ids: string;
  seq: number;
}

export type ForgeLinkChange = Partial<Pick<ForgeLink, 'issue' | 'pullRequest' | 'checksSentFor' | 'sentCommentIds'>>;

/** The agents' ties to the forge (issue, pull request), one row per agent that has one. */
export class ForgeLinkStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      all: db.prepare<[], ForgeLinkRow>('SELECT * FROM forge_links ORDER BY rowid'),
      byAgent: db.prepare<[string], ForgeLinkRow>('SELECT * FROM forge_links WHERE agent_id = ?'),
      upsert: db.prepare(
        `INSERT INTO forge_links (agent_id, issue, pull_request, checks_sent_for, sent_comment_ids, seq)
         VALUES (@agentId, @issue, @pullRequest, @checksSentFor, @sentCommentIds, @seq)
         ON CONFLICT (agent_id) DO UPDATE SET issue = excluded.issue, pull_request = excluded.pull_request,
           checks_sent_for = excluded.checks_sent_for, sent_comment_ids = excluded.sent_comment_ids, seq = excluded.seq`,
      ),
    };
  }

  list(): ForgeLink[] {
    return this.statements.all.all().map((row) => this.toLink(row));
  }

  get(agentId: string): ForgeLink | undefined {
    const row = this.statements.byAgent.get(agentId);
    return row && this.toLink(row);
  }

  /** Writes the change over what the agent's link holds (an empty link when it has none yet). */
  update(agentId: string, change: ForgeLinkChange): ForgeLink {
    const current = this.get(agentId) ?? { issue: null, pullRequest: null, checksSentFor: null, sentCommentIds: [] };
    const next = { ...current, ...change };
    this.statements.upsert.run({
      agentId,
      issue: next.issue ? JSON.stringify(next.issue) : null,
      pullRequest: next.pullRequest ? JSON.stringify(next.pullRequest) : null,
      checksSentFor: next.checksSentFor,
      sentCommentIds: JSON.stringify(next.sentCommentIds),
      seq: this.seq.next(),
    });
    return this.get(agentId) as ForgeLink;
  }

  private toLink(row: ForgeLinkRow): ForgeLink {
    // A row an older or newer Drover wrote in another shape reads as unknown rather than failing the snapshot.
    const issue = row.issue ? ForgeIssueRefSchema.safeParse(JSON.parse(row.issue)) : null;
    const pullRequest = row.pull_request ? PullRequestSchema.safeParse(JSON.parse(row.pull_request)) : null;
    return {
      agentId: row.agent_id,
      projectId: this.projectId,
      issue: issue?.success ? issue.data : null,
      pullRequest: pullRequest?.success ? pullRequest.data : null,
      checksSentFor: row.checks_sent_for,
      sentCommentIds: (JSON.parse(row.sent_comment_ids) as unknown[]).filter((id): id is number => typeof id === 'number'),
      seq: row.seq,
    };
  }
}
