import type { AutomationRunner, Clock } from './automationRunner';
import type { AutomationProjects } from './automationTriggers';

/** What the issue triggers read of a project's GitHub repository. */
export interface IssueSource {
  /** The open issues carrying every one of `labels`. */
  issues(projectId: string, labels: readonly string[]): Promise<{ number: number; createdAt: number }[]>;
  issue(projectId: string, number: number): Promise<{ number: number; title: string; url: string; body: string }>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Polls the GitHub issues of the projects with an issue rule: each open issue with the rule's label
 * (or, for issue-opened, each opened after the rule was made) sets the rule off once, however often
 * it is seen again.
 */
export class IssueTriggers {
  private cancel: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly projects: Pick<AutomationProjects, 'ids' | 'automations'>,
    private readonly source: IssueSource,
    private readonly runner: AutomationRunner,
    private readonly clock: Clock,
    private readonly pollMs: number,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.next();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  private next(): void {
    if (this.stopped) return;
    this.cancel = this.clock.setTimer(this.pollMs, () => {
      this.poll().finally(() => this.next());
    });
  }

  async poll(): Promise<void> {
    for (const projectId of this.projects.ids()) {
      const store = this.projects.automations(projectId);
      for (const automation of store.list()) {
        const { trigger } = automation;
        if (!automation.enabled || (trigger.kind !== 'issue-labelled' && trigger.kind !== 'issue-opened')) continue;
        try {
          const issues = await this.source.issues(projectId, trigger.kind === 'issue-labelled' ? [trigger.label] : []);
          for (const seen of issues) {
            const key = `issue:${seen.number}`;
            if ((trigger.kind === 'issue-opened' && seen.createdAt < automation.createdAt) || store.answered(automation.id, key)) continue;
            // An issue stays on GitHub: while a run is going or the day's cap is reached, a later poll takes it (a skip would lose it).
            if (this.runner.whyNotNow(store, automation) !== null) break;
            const issue = await this.source.issue(projectId, seen.number);
            const fields = { 'issue.number': String(issue.number), 'issue.title': issue.title, 'issue.body': issue.body, 'issue.url': issue.url };
            const said = trigger.kind === 'issue-labelled' ? `issue #${issue.number} labelled ${trigger.label}` : `issue #${issue.number} opened`;
            this.runner.fire(projectId, store, automation.id, { key, trigger: said, fields });
          }
        } catch (error) {
          this.log(`automation ${automation.name} of ${projectId} could not read its GitHub issues: ${messageOf(error)}`);
        }
      }
    }
  }
}
