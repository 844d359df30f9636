import { create } from 'zustand';

export interface OutputTarget {
  projectId: string;
  taskId: string;
}

interface OutputViewerState {
  /** The task whose output viewer is open; toasts open it too, from any page. */
  target: OutputTarget | null;
  open(target: OutputTarget): void;
  close(): void;
}

export const useOutputViewer = create<OutputViewerState>()((set) => ({
  target: null,
  open: (target) => set({ target }),
  close: () => set({ target: null }),
}));
