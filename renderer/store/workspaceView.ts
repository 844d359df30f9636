import { z } from 'zod';
import { create } from 'zustand';
import type { Agent } from '../../shared/entities/agents';
import { readLocalSetting, writeLocalSetting } from './localSetting';
import { isPhoneLayout, usePhoneLayout } from './phoneLayout';

export const PANE_LAYOUTS = ['grid', 'focus', 'tabs'] as const;
/** How a project's agent panes share the window: all in a grid, one large beside a list of the others, or one at a time under tabs. */
export type PaneLayout = (typeof PANE_LAYOUTS)[number];

export const WORK_STATE_HEIGHT = { min: 120, max: 2000, initial: 320 } as const;

/** How a project's page is arranged on a wide window, kept per project in this browser. */
export interface ProjectView {
  layout: PaneLayout;
  /** The work state panel beside the agents. */
  workStateShown: boolean;
  /** The work state panel's height in CSS pixels. */
  workStateHeight: number;
}

const storedViewSchema = z
  .object({
    layout: z.enum(PANE_LAYOUTS),
    workStateShown: z.boolean(),
    workStateHeight: z.number().min(WORK_STATE_HEIGHT.min).max(WORK_STATE_HEIGHT.max),
  })
  .partial();

/** Before views were kept per project, one choice of the work state's visibility held for all of them. */
const SHARED_WORK_STATE_SHOWN_KEY = 'drover.workStateShown';

const viewKey = (projectId: string) => `drover.projectView.${projectId}`;

function readStoredView(projectId: string): ProjectView {
  const fallback: ProjectView = {
    layout: 'grid',
    workStateShown: readLocalSetting(SHARED_WORK_STATE_SHOWN_KEY) !== 'false',
    workStateHeight: WORK_STATE_HEIGHT.initial,
  };
  try {
    const stored = storedViewSchema.safeParse(JSON.parse(readLocalSetting(viewKey(projectId)) ?? '{}'));
    return stored.success ? { ...fallback, ...stored.data } : fallback;
  } catch {
    return fallback;
  }
}

interface WorkspaceViewState {
  /** Each project's arrangement, read from storage the first time the project is asked about. */
  projectViews: Readonly<Record<string, ProjectView>>;
  /** On a phone the work state is a sheet over the terminal; a reload starts with it closed. */
  workStateSheetOpen: boolean;
  /** The agent maximised in each project's grid on a wide window. */
  maximisedAgentByProject: Readonly<Record<string, string>>;
  /** The agent in front where one pane shows at a time (a phone, the focus and tabs layouts); it maximises nothing in the grid. */
  frontAgentByProject: Readonly<Record<string, string>>;
}

/**
 * What the project workspace shows, outside the components, so that the command palette, the
 * Needs you queue and notifications can open a panel or a pane and tell what is in view.
 */
export const useWorkspaceView = create<WorkspaceViewState>()(() => ({
  projectViews: {},
  workStateSheetOpen: false,
  maximisedAgentByProject: {},
  frontAgentByProject: {},
}));

/** Views read from storage but not changed yet: the same object each time, so selectors stay stable. */
const readViews = new Map<string, ProjectView>();

export function projectView(state: WorkspaceViewState, projectId: string): ProjectView {
  const changed = state.projectViews[projectId];
  if (changed) return changed;
  let read = readViews.get(projectId);
  if (!read) {
    read = readStoredView(projectId);
    readViews.set(projectId, read);
  }
  return read;
}

export function useProjectView(projectId: string): ProjectView {
  return useWorkspaceView((state) => projectView(state, projectId));
}

export function updateProjectView(projectId: string, change: Partial<ProjectView>): void {
  const next = { ...projectView(useWorkspaceView.getState(), projectId), ...change };
  useWorkspaceView.setState((state) => ({ projectViews: { ...state.projectViews, [projectId]: next } }));
  writeLocalSetting(viewKey(projectId), JSON.stringify(next));
}

/** Shows or hides the project's work state the way the layout shows it: the panel, or on a phone the sheet. */
export function showWorkState(projectId: string, shown: boolean): void {
  if (isPhoneLayout()) useWorkspaceView.setState({ workStateSheetOpen: shown });
  else updateProjectView(projectId, { workStateShown: shown });
}

export function isWorkStateShown(state: WorkspaceViewState, projectId: string, phone: boolean): boolean {
  return phone ? state.workStateSheetOpen : projectView(state, projectId).workStateShown;
}

export function useWorkStateShown(projectId: string): boolean {
  const phone = usePhoneLayout();
  return useWorkspaceView((state) => isWorkStateShown(state, projectId, phone));
}

/** The layout the page uses: a phone shows one pane at a time under tabs whatever the wide window's choice. */
export function shownLayout(state: WorkspaceViewState, projectId: string, phone: boolean): PaneLayout {
  return phone ? 'tabs' : projectView(state, projectId).layout;
}

function soloKey(state: WorkspaceViewState, projectId: string, phone: boolean): 'maximisedAgentByProject' | 'frontAgentByProject' {
  return shownLayout(state, projectId, phone) === 'grid' ? 'maximisedAgentByProject' : 'frontAgentByProject';
}

/** Shows the agent alone (null: no choice), in the layout's own way: maximised in the grid, in front where one pane shows at a time. */
export function setSoloAgent(projectId: string, agentId: string | null): void {
  useWorkspaceView.setState((state) => {
    const key = soloKey(state, projectId, isPhoneLayout());
    const next = { ...state[key] };
    if (agentId) next[projectId] = agentId;
    else delete next[projectId];
    return { [key]: next };
  });
}

/** The agent the person chose to show alone in this layout, if any. */
export function chosenSoloAgent(state: WorkspaceViewState, projectId: string, phone: boolean): string | undefined {
  return state[soloKey(state, projectId, phone)][projectId];
}

/**
 * The agent shown alone (or large), if any: the one chosen, else where one pane shows at a time
 * the first agent.
 */
export function soloAgentId(agents: readonly Agent[], chosen: string | undefined, layout: PaneLayout): string | null {
  if (chosen && agents.some((agent) => agent.id === chosen)) return chosen;
  return layout === 'grid' ? null : (agents[0]?.id ?? null);
}
