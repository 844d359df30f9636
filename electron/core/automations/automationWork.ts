import { isTaskFinished } from '../../../shared/entities/tasks';
import type { StoredAutomation } from '../storage/automationStore';
import { shellLine } from '../../common/shellQuote';
import { describeExit } from '../../common/taskExit';
import type { AgentService } from '../agents/agentService';
import { fail } from '../errors';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { SessionService } from '../sessions/sessionService';
import type { ProjectStores } from '../storage/projectStores';
import type { TaskService } from '../tasks/taskService';
import type { AutomationActions, AutomationEvent, StartedWork } from './automationRunner';
import { eventEnv, fillTemplate } from './eventTemplate';

/** A follow-up task's command: the event's fields reach it as environment variables, whatever the person's shell. */
export function followUpCommand(command: string, event: AutomationEvent): string {
  const filled = fillTemplate(command, event.fields, 'command');
  const env = Object.entries(eventEnv(event.fields)).map(([name, value]) => `${name}=${value}`);
  return env.length === 0 ? filled : shellLine(['env', ...env, 'sh', '-c', filled]);
}

/** The first agent name `automation-N` the project has not used. */
function freshAgentName(taken: (name: string) => boolean, automation: string): string {
  let n = 1;
  while (taken(`${automation}-${n}`)) n++;
  return `${automation}-${n}`;
}

/**
 * What an automation does: runs a task (labelled with the automation's name, so its history links
 * to it), posts a message to an agent's inbox, which wakes the agent the usual safe way, or starts
 * a new agent in its own worktree whose first prompt waits in its inbox (a paused account holds it,
 * as it holds every wake).
 */
export class AutomationWork implements AutomationActions {
  constructor(
    private readonly tasks: TaskService,
    private readonly inbox: MediatedInbox,
    private readonly stores: ProjectStores,
    private readonly agents: AgentService,
    private readonly sessions: SessionService,
    /** Settles once the account the profile spends is not paused for its usage limit. */
    private readonly accountFree: (profileId: string) => Promise<void>,
  ) {}

  start(projectId: string, automation: StoredAutomation, event: AutomationEvent): StartedWork | Promise<StartedWork> {
    const { action } = automation;
    if (action.kind === 'agent') return this.startAgent(projectId, automation, action, event);
    if (action.kind === 'task') {
      const owner = action.owner === null ? undefined : (this.stores.get(projectId).agents.byIdOrName(action.owner) ?? fail('not-found', `There is no agent ${action.owner} in the project any more to own the task.`));
      const task = this.tasks.create({ projectId, command: followUpCommand(action.command, event), cwd: action.cwd ?? undefined, label: automation.name, ownerAgentId: owner?.id });
      // A command that cannot start ends within create, before its run knows the task to wait for.
      const now = this.stores.get(projectId).tasks.get(task.id);
      if (now && isTaskFinished(now.state)) fail('spawn-failed', `Its task could not start: ${describeExit(now)}.`);
      return { taskId: task.id };
    }
    const agent = this.stores.get(projectId).agents.byIdOrName(action.agent) ?? fail('not-found', `There is no agent ${action.agent} in the project any more.`);
    this.inbox.post(projectId, { agentId: agent.id, kind: 'note', body: `From automation ${automation.name}: ${fillTemplate(action.text, event.fields, 'text')}` });
    return { agentId: agent.id, done: true };
  }

  private async startAgent(projectId: string, automation: StoredAutomation, action: Extract<StoredAutomation['action'], { kind: 'agent' }>, event: AutomationEvent): Promise<StartedWork> {
    // Held while its account is paused: the run stays running, and no agent or worktree is made meanwhile.
    await this.accountFree(action.profileId);
    const store = this.stores.get(projectId);
    // Agent names are at most 60 characters; an automation's name, 80.
    const name = freshAgentName((candidate) => store.agents.byName(candidate) !== undefined, automation.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 50));
    const agent = await this.agents.create({
      projectId,
      name,
      role: `Started by automation ${automation.name} (${event.trigger})`,
      profileId: action.profileId,
      workspace: { kind: 'new-worktree', ...(action.base === null ? {} : { base: action.base }) },
    });
    try {
      this.inbox.post(projectId, { agentId: agent.id, kind: 'note', body: fillTemplate(action.prompt, event.fields, 'text') });
      this.sessions.start(agent.id, false);
    } catch (error) {
      await this.agents.remove(agent.id, { discardWork: true });
      throw error;
    }
    return { agentId: agent.id, done: true };
  }
}
