import type { Check } from '../../../shared/forge';
import type { StoredAutomation } from '../storage/automationStore';
import type { AutomationEvent, AutomationRunner, Clock } from './automationRunner';
import type { AutomationProjects } from './automationTriggers';

/** What the GitHub triggers read of a project's repository. */
export interface GitHubSource {
  /** The open issues carrying every one of `labels`. */
  issues(projectId: string, labels: readonly string[]): Promise<{ number: number; createdAt: number }[]>;
  issue(projectId: string, number: number): Promise<{ number: number; title: string; url: string; body: string }>;
  /** The checks of the branch's tip that failed. */
  failedChecks(projectId: string, branch: string): Promise<Check[]>;
  /** What a failed check says (its summary, annotations or log tail). */
  failureDetails(projectId: string, check: Check): Promise<string>;
}

/** One thing on GitHub that may set a rule off, read in full only when it will. */
interface Sighting {
  key: string;
  event(): Promise<AutomationEvent>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Polls GitHub for the projects' GitHub rules: each open issue with the rule's label (or, for
 * issue-opened, each opened after the rule was made), and each failed check run on the rule's
 * branch, sets the rule off once, however often it is seen again.
 */
export class GitHubTriggers {
  private cancel: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly projects: Pick<AutomationProjects, 'ids' | 'automations'>,
    private readonly source: GitHubSource,
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
        if (!automation.enabled) continue;
        try {
          for (const sighting of await this.sightings(projectId, automation)) {
            if (store.answered(automation.id, sighting.key)) continue;
            // It stays on GitHub: while a run is going or the day's cap is reached, a later poll takes it (a skip would lose it).
            if (this.runner.whyNotNow(store, automation) !== null) break;
            this.runner.fire(projectId, store, automation.id, await sighting.event());
          }
        } catch (error) {
          this.log(`automation ${automation.name} of ${projectId} could not read GitHub: ${messageOf(error)}`);
        }
      }
    }
  }

  /** What GitHub shows now that the automation's trigger waits for; nothing for a trigger of another kind. */
  private async sightings(projectId: string, automation: StoredAutomation): Promise<Sighting[]> {
    const { trigger } = automation;
    if (trigger.kind === 'check-failed') {
      const failed = await this.source.failedChecks(projectId, trigger.branch);
      return failed.map((check) => {
        // A check run's id names one run; a status names its context, so its link tells one run from the next.
        const key = `check:${trigger.branch}:${check.id}:${check.url ?? ''}`;
        return {
          key,
          event: async () => ({
            key,
            trigger: `check ${check.name} failed on ${trigger.branch}`,
            fields: { 'check.name': check.name, 'check.summary': await this.source.failureDetails(projectId, check), 'check.url': check.url ?? '' },
          }),
        };
      });
    }
    if (trigger.kind !== 'issue-labelled' && trigger.kind !== 'issue-opened') return [];
    const issues = await this.source.issues(projectId, trigger.kind === 'issue-labelled' ? [trigger.label] : []);
    return issues
      .filter((seen) => trigger.kind !== 'issue-opened' || seen.createdAt >= automation.triggerSetAt)
      .map((seen) => {
        const key = `issue:${seen.number}`;
        return {
          key,
          event: async () => {
            const issue = await this.source.issue(projectId, seen.number);
            return {
              key,
              trigger: trigger.kind === 'issue-labelled' ? `issue #${issue.number} labelled ${trigger.label}` : `issue #${issue.number} opened`,
              fields: { 'issue.number': String(issue.number), 'issue.title': issue.title, 'issue.body': issue.body, 'issue.url': issue.url },
            };
          },
        };
      });
  }
}
