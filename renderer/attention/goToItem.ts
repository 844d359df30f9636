import type { AttentionItem } from '../store/attention';
import { goTo } from '../store/focusRequest';

/** Opens the item's project and focuses the agent's pane, or selects the task in the work state; an automation's, where its Automations button is. */
export function goToItem(item: AttentionItem): void {
  if ('agent' in item) goTo({ kind: 'agent', projectId: item.projectId, agentId: item.agent.id });
  else if ('task' in item) goTo({ kind: 'task', projectId: item.projectId, taskId: item.task.id });
  else goTo({ kind: 'project', projectId: item.projectId, notice: `${item.automation.name} paused itself: open Automations to see its runs and resume it.` });
}
