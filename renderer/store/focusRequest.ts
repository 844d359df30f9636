import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { navigate } from '../routing';
import { isPhoneLayout } from './phoneLayout';
import { chosenSoloAgent, setSoloAgent, showWorkState, shownLayout, useWorkspaceView } from './workspaceView';

/**
 * Where the person asked to go: an agent's pane, a task's row (its output open, when asked), the
 * add-project field, a project's page, or the Settings page's button that installs the command line tool.
 */
export type FocusTarget =
  | { kind: 'agent'; projectId: string; agentId: string }
  | { kind: 'task'; projectId: string; taskId: string; openOutput?: boolean }
  | { kind: 'add-project' }
  /** A project's page, with a word on why it opened (it was just added, or had been already). */
  | { kind: 'project'; projectId: string; notice: string }
  | { kind: 'command-line-tool' };

interface PendingFocus {
  target: FocusTarget;
  id: number;
}

const usePendingFocus = create<{ pending: PendingFocus | null }>()(() => ({ pending: null }));
let nextId = 1;

/**
 * Opens the page the target is on and asks the component that shows it to focus it: the target
 * waits here until that component has mounted and found it (a page change, a snapshot to load).
 */
export function goTo(target: FocusTarget): void {
  if (target.kind === 'add-project') navigate({ page: 'projects' });
  else if (target.kind === 'command-line-tool') navigate({ page: 'settings' });
  else navigate({ page: 'project', projectId: target.projectId });
  if (target.kind === 'task') showWorkState(target.projectId, true);
  if (target.kind === 'agent') {
    const view = useWorkspaceView.getState();
    const phone = isPhoneLayout();
    if (chosenSoloAgent(view, target.projectId, phone) || shownLayout(view, target.projectId, phone) !== 'grid') setSoloAgent(target.projectId, target.agentId);
  }
  usePendingFocus.setState({ pending: { target, id: nextId++ } });
}

/**
 * Hands the pending target to `accept` after every render until it returns true (it found the
 * target and focused it); a newer `goTo` replaces a target nobody took.
 */
export function useFocusRequest(accept: (target: FocusTarget) => boolean): void {
  const pending = usePendingFocus((state) => state.pending);
  const acceptRef = useRef(accept);
  useEffect(() => {
    acceptRef.current = accept;
  });
  useEffect(() => {
    if (!pending || !acceptRef.current(pending.target)) return;
    usePendingFocus.setState((state) => (state.pending?.id === pending.id ? { pending: null } : state));
  });
}
