import { useCallback, useRef } from 'react';
import { isPhoneLayout } from '../store/phoneLayout';
import { isWorkStateShown, showWorkState, useWorkspaceView } from '../store/workspaceView';

/** Where focus goes in the work state panel: its task grid and its search, shown first if hidden. */
export function usePanelFocus(projectId: string) {
  const gridRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const focusGrid = useCallback(() => gridRef.current?.focus(), []);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  /** Every dialog of the panel hands focus back to the task grid when it closes. */
  const thenFocusGrid = (close: () => void) => () => {
    close();
    focusGrid();
  };
  /** Shows the panel (or the sheet, on a phone) if it is hidden, then focuses a part of it. */
  const revealAndFocus = useCallback((focus: () => void) => {
    if (isWorkStateShown(useWorkspaceView.getState(), projectId, isPhoneLayout())) {
      focus();
      return;
    }
    showWorkState(projectId, true);
    requestAnimationFrame(focus);
  }, [projectId]);
  return { gridRef, searchRef, focusGrid, focusSearch, thenFocusGrid, revealAndFocus };
}
