import type { StoredAutomation } from '../storage/automationStore';
import { shellLine } from '../../../shared/shellQuote';
import { fail } from '../errors';
import type { MediatedInbox } from '../inbox/mediatedInbox';
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

/**
 * What an automation does: runs a task (labelled with the automation's name, so its history links
 * to it), or posts a message to an agent's inbox, which wakes the agent the usual safe way.
 */
export class AutomationWork implements AutomationActions {
  constructor(
    private readonly tasks: TaskService,
    private readonly inbox: MediatedInbox,
    private readonly stores: ProjectStores,
  ) {}

  start(projectId: string, automation: StoredAutomation, event: AutomationEvent): StartedWork {
    const { action } = automation;
    if (action.kind === 'task') {
      const task = this.tasks.create({ projectId, command: followUpCommand(action.command, event), cwd: action.cwd ?? undefined, label: automation.name });
      return { taskId: task.id };
    }
    const agent = this.stores.get(projectId).agents.byIdOrName(action.agent) ?? fail('not-found', `There is no agent ${action.agent} in the project any more.`);
    this.inbox.post(projectId, { agentId: agent.id, kind: 'note', body: `From automation ${automation.name}: ${fillTemplate(action.text, event.fields, 'text')}` });
    return { agentId: agent.id, done: true };
  }
}
