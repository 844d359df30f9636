import { useCallback, useRef } from 'react';
import type { Agent } from '../../shared/entities/agents';
import { usePhoneLayout } from '../store/phoneLayout';
import { chosenSoloAgent, setSoloAgent, shownLayout, soloAgentId, updateProjectView, useWorkspaceView, type PaneLayout } from '../store/workspaceView';
import type { AgentPaneHandle } from './AgentPane';
import { gridShape } from './paneLayout';
import { useElementSize } from './useElementSize';

export type AgentPanes = ReturnType<typeof useAgentPanes>;

/**
 * The agents' panes: the layout, the grid's shape, the one shown alone (maximised in the grid, or in
 * front where one pane shows at a time), and focus among them.
 */
export function useAgentPanes(projectId: string, agents: readonly Agent[]) {
  const phone = usePhoneLayout();
  const layout = useWorkspaceView((state) => shownLayout(state, projectId, phone));
  const chosenSolo = useWorkspaceView((state) => chosenSoloAgent(state, projectId, phone));
  // A ref, not state: Alt+1 then Ctrl+Shift+Enter can come faster than the focus moves (it waits a
  // frame) or a render, and the second key must act on the pane the first one chose.
  const focusedId = useRef<string | null>(null);
  const paneHandles = useRef(new Map<string, AgentPaneHandle>());
  const gridRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(gridRef);

  const soloId = soloAgentId(agents, chosenSolo, layout);
  const maximised = agents.find((agent) => agent.id === soloId) ?? null;
  const setMaximisedId = (agentId: string | null) => setSoloAgent(projectId, agentId);
  const setLayout = useCallback((next: PaneLayout) => updateProjectView(projectId, { layout: next }), [projectId]);
  const shape = maximised ? { columns: 1, rows: 1 } : gridShape(agents.length, size.width, size.height);

  const focusPane = useCallback((agentId: string) => {
    focusedId.current = agentId;
    requestAnimationFrame(() => paneHandles.current.get(agentId)?.focus());
  }, []);
  const maximisedId = maximised?.id ?? null;
  /** Brings the agent's pane into view (the one shown alone, if one is) and focuses it. */
  const showPane = useCallback(
    (agentId: string) => {
      if (maximisedId) setSoloAgent(projectId, agentId);
      focusPane(agentId);
    },
    [maximisedId, projectId, focusPane],
  );
  const focusedAgentId = () => agents.find((agent) => agent.id === focusedId.current)?.id ?? agents[0]?.id ?? null;
  const setPaneHandle = (agentId: string, handle: AgentPaneHandle | null) => {
    if (handle) paneHandles.current.set(agentId, handle);
    else paneHandles.current.delete(agentId);
  };
  const noteFocused = (agentId: string) => {
    focusedId.current = agentId;
  };

  return { phone, layout, setLayout, gridRef, shape, soloId, maximised, setMaximisedId, focusPane, showPane, focusedAgentId, setPaneHandle, noteFocused };
}
