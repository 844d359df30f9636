import type { Agent } from '../../../shared/entities/agents';
import type { ForgeIssue } from '../../../shared/forge';
import type { AgentService } from '../agents/agentService';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { ProfileRegistry } from '../profiles/profileRegistry';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { SessionService } from '../sessions/sessionService';
import type { ProjectStores } from '../storage/projectStores';
import { slugOf } from '../worktrees/worktreeService';
import type { IssueQuery } from './forge';
import type { ForgeConnector } from './forgeConnector';
import { saveForgeLink } from './forgeLinkAnnouncer';
import { issuePrompt } from './forgeText';

/** The project's issues, and agents started on them. */
export class IssueService {
  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    private readonly inbox: MediatedInbox,
    private readonly profiles: ProfileRegistry,
    private readonly agents: AgentService,
    private readonly sessions: SessionService,
    private readonly connector: ForgeConnector,
  ) {}

  async list(projectId: string, query: IssueQuery): Promise<{ issues: ForgeIssue[]; labels: string[] }> {
    this.projects.get(projectId);
    const { forge } = await this.connector.connect(projectId);
    const [issues, labels] = await Promise.all([forge.issues(query), forge.labels()]);
    const working = new Map(this.stores.get(projectId).forgeLinks.list().flatMap((link) => (link.issue ? [[link.issue.number, link.agentId] as const] : [])));
    return { issues: issues.map((issue) => ({ ...issue, agentId: working.get(issue.number) ?? null })), labels };
  }

  /**
   * An agent for the issue in its own worktree, on a branch named for it; the issue goes to its
   * inbox and is typed in through the wake once the agent is ready. Anything that fails undoes
   * what was made (the agent, its worktree and branch), so no half-started agent stays.
   */
  async start(input: { projectId: string; issueNumber: number; profileId: string; name?: string | undefined }): Promise<Agent> {
    this.projects.get(input.projectId);
    const profile = this.profiles.get(input.profileId);
    if (profile.unavailableReason) fail('invalid-state', `The ${profile.name} profile cannot start: ${profile.unavailableReason}`);
    const store = this.stores.get(input.projectId);
    const working = store.forgeLinks.list().find((link) => link.issue?.number === input.issueNumber);
    if (working) fail('conflict', `${store.agents.get(working.agentId)?.name ?? 'An agent'} already works on #${input.issueNumber}.`);
    const { forge } = await this.connector.connect(input.projectId);
    const issue = await forge.issue(input.issueNumber);
    const branch = `drover/issue-${issue.number}-${slugOf(issue.title)}`;
    const agent = await this.agents.create({
      projectId: input.projectId,
      name: input.name ?? `issue-${issue.number}`,
      role: `#${issue.number}: ${issue.title}`.slice(0, 4000),
      profileId: profile.id,
      workspace: { kind: 'new-worktree', branch },
    });
    try {
      saveForgeLink(this.events, store, agent.id, { issue: { number: issue.number, title: issue.title, url: issue.url } });
      this.inbox.post(input.projectId, { agentId: agent.id, kind: 'note', body: issuePrompt(issue, branch) });
      this.sessions.start(agent.id, false);
    } catch (error) {
      await this.agents.remove(agent.id, { discardWork: true });
      throw error;
    }
    return agent;
  }
}
