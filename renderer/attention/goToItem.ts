import type { AttentionItem } from '../store/attention';
import { goTo } from '../store/focusRequest';

/** Opens the item's project and focuses the agent's pane, or selects the task in the work state. */
export function goToItem(item: AttentionItem): void {
  if ('agent' in item) goTo({ kind: 'agent', projectId: item.projectId, agentId: item.agent.id });
  else goTo({ kind: 'task', projectId: item.projectId, taskId: item.task.id });
}
