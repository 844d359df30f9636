import { currentRoute } from '../routing';
import type { AttentionItem } from '../store/attention';
import { isPhoneLayout } from '../store/phoneLayout';
import type { WorkStates } from '../store/projectWorkState';
import { agentsInOrder } from '../store/selectors';
import { chosenSoloAgent, isWorkStateShown, shownLayout, soloAgentId, useWorkspaceView } from '../store/workspaceView';

/**
 * Whether the person sees the item right now: the window has focus, its project's page is open,
 * and its pane (one shown alone hides the others) or the work state panel is on screen.
 */
export function isItemInView(item: AttentionItem, workStates: WorkStates): boolean {
  if (document.visibilityState !== 'visible' || !document.hasFocus()) return false;
  const route = currentRoute();
  if (route.page !== 'project' || route.projectId !== item.projectId) return false;
  const view = useWorkspaceView.getState();
  const phone = isPhoneLayout();
  if (!('agent' in item)) return isWorkStateShown(view, item.projectId, phone);
  const agents = agentsInOrder(workStates[item.projectId]?.agentsById ?? {});
  const solo = soloAgentId(agents, chosenSoloAgent(view, item.projectId, phone), shownLayout(view, item.projectId, phone));
  return solo === null || solo === item.agent.id;
}
