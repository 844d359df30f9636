import { create } from 'zustand';
import type { Agent } from '../../shared/entities';
import { isPhoneLayout, usePhoneLayout } from './phoneLayout';

const WORK_STATE_SHOWN_KEY = 'drover.workStateShown';

function readShown(): boolean {
  try {
    return window.localStorage.getItem(WORK_STATE_SHOWN_KEY) !== 'false';
  } catch {
    return true;
  }
}

interface WorkspaceViewState {
  /** Beside the agents on a wide window; the choice survives reloads. */
  workStateShown: boolean;
  /** On a phone the work state is a sheet over the terminal; a reload starts with it closed. */
  workStateSheetOpen: boolean;
  /** The agent maximised in each project on a wide window. */
  soloAgentByProject: Readonly<Record<string, string>>;
  /** The agent a phone's switcher picked in each project: it maximises nothing once the window is wide again. */
  phoneAgentByProject: Readonly<Record<string, string>>;
}

/**
 * What the project workspace shows, outside the components, so that the command palette, the
 * Needs you queue and notifications can open a panel or a pane and tell what is in view.
 */
export const useWorkspaceView = create<WorkspaceViewState>()(() => ({
  workStateShown: readShown(),
  workStateSheetOpen: false,
  soloAgentByProject: {},
  phoneAgentByProject: {},
}));

/** Shows or hides the work state the way the layout shows it: the panel, or on a phone the sheet. */
export function showWorkState(shown: boolean): void {
  if (isPhoneLayout()) {
    useWorkspaceView.setState({ workStateSheetOpen: shown });
    return;
  }
  useWorkspaceView.setState({ workStateShown: shown });
  try {
    window.localStorage.setItem(WORK_STATE_SHOWN_KEY, String(shown));
  } catch {
    // Storage can be disabled; the choice still holds for this page.
  }
}

export function isWorkStateShown(state: WorkspaceViewState, phone: boolean): boolean {
  return phone ? state.workStateSheetOpen : state.workStateShown;
}

export function useWorkStateShown(): boolean {
  const phone = usePhoneLayout();
  return useWorkspaceView((state) => isWorkStateShown(state, phone));
}

/** Shows the agent alone (null: the grid), in the layout's own choice: maximised on a wide window, picked on a phone. */
export function setSoloAgent(projectId: string, agentId: string | null): void {
  const key = isPhoneLayout() ? 'phoneAgentByProject' : 'soloAgentByProject';
  useWorkspaceView.setState((state) => {
    const next = { ...state[key] };
    if (agentId) next[projectId] = agentId;
    else delete next[projectId];
    return { [key]: next };
  });
}

/** The agent the person chose to show alone in this layout, if any. */
export function chosenSoloAgent(state: WorkspaceViewState, projectId: string, phone: boolean): string | undefined {
  return (phone ? state.phoneAgentByProject : state.soloAgentByProject)[projectId];
}

/**
 * The agent shown alone, if any: the one maximised (or picked on a phone), else on a phone the
 * first agent, since a phone shows one pane at a time.
 */
export function soloAgentId(agents: readonly Agent[], chosen: string | undefined, phone: boolean): string | null {
  if (chosen && agents.some((agent) => agent.id === chosen)) return chosen;
  return phone ? (agents[0]?.id ?? null) : null;
}
