import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { updateProjectView, WORK_STATE_HEIGHT } from '../store/workspaceView';

/** The agents keep at least this much of the workspace, however tall the work state is made. */
const AGENTS_KEEP = 160;
const STEP = 24;
const PAGE_STEP = 96;

/** The tallest the work state may be in a workspace this tall (0: not measured yet). */
function tallestIn(workspaceHeight: number): number {
  const room = workspaceHeight > 0 ? workspaceHeight - AGENTS_KEEP : WORK_STATE_HEIGHT.max;
  return Math.max(WORK_STATE_HEIGHT.min, Math.min(WORK_STATE_HEIGHT.max, room));
}

/** The height the work state shows at: the one chosen, as far as the workspace has room for it. */
export function shownWorkStateHeight(chosen: number, workspaceHeight: number): number {
  return Math.min(chosen, tallestIn(workspaceHeight));
}

interface WorkStateSplitterProps {
  projectId: string;
  /** The work state panel it sizes. */
  panelId: string;
  /** The panel's height now. */
  height: number;
  /** The height of the workspace the agents and the work state share. */
  workspaceHeight: number;
}

/**
 * The line between the agents and the work state: drag it, or focus it and use the arrow keys,
 * Page Up/Down, Home and End, to make the work state taller or shorter (kept per project).
 */
export function WorkStateSplitter({ projectId, panelId, height, workspaceHeight }: WorkStateSplitterProps) {
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  const tallest = tallestIn(workspaceHeight);
  const resize = (next: number) => updateProjectView(projectId, { workStateHeight: Math.round(Math.min(tallest, Math.max(WORK_STATE_HEIGHT.min, next))) });

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const steps: Record<string, number> = { ArrowUp: STEP, ArrowDown: -STEP, PageUp: PAGE_STEP, PageDown: -PAGE_STEP };
    let next: number | undefined = steps[event.key] === undefined ? undefined : height + (steps[event.key] ?? 0);
    if (event.key === 'Home') next = WORK_STATE_HEIGHT.min;
    if (event.key === 'End') next = tallest;
    if (next === undefined) return;
    event.preventDefault();
    resize(next);
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>): void {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startY: event.clientY, startHeight: height };
  }

  function endDrag(): void {
    drag.current = null;
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>): void {
    if (drag.current) resize(drag.current.startHeight + drag.current.startY - event.clientY);
  }

  return (
    <div
      role="separator"
      tabIndex={0}
      aria-orientation="horizontal"
      aria-label="Work state height"
      aria-controls={panelId}
      aria-valuemin={WORK_STATE_HEIGHT.min}
      aria-valuemax={tallest}
      aria-valuenow={height}
      title="Drag, or use the arrow keys, to resize the work state"
      className="work-state-splitter"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
    />
  );
}
