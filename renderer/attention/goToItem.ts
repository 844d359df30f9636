import type { AttentionItem } from '../store/attention';
import { goTo } from '../store/focusRequest';

/** The agent whose pane the item is about: its own, or the first of two conflicting agents (whose pane names the other). */
export function agentOfItem(item: AttentionItem): string | null {
  if ('agent' in item) return item.agent.id;
  return 'conflict' in item ? item.conflict.agents[0] : null;
}

/** Opens the item's project and focuses the agent's pane, or selects the task in the work state; an automation's, where its Automations button is. */
export function goToItem(item: AttentionItem): void {
  const agentId = agentOfItem(item);
  if (agentId) goTo({ kind: 'agent', projectId: item.projectId, agentId });
  else if ('task' in item) goTo({ kind: 'task', projectId: item.projectId, taskId: item.task.id });
  else if ('automation' in item) goTo({ kind: 'project', projectId: item.projectId, notice: `${item.automation.name} paused itself: open Automations to see its runs and resume it.` });
}
