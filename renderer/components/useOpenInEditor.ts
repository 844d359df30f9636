import { useState } from 'react';
import type { MethodParams } from '../../shared/contract';
import { goTo } from '../store/focusRequest';
import { useBridge } from '../store/StoreContext';
import { usePendingAction } from './usePendingAction';

export type EditorTarget = MethodParams<'openInEditor'>;

/**
 * "Open in editor" for a view: asks the host to open the file at the line with the person's
 * editor; `opened` says which file it handed over, `error` why it could not (no editor set, a file
 * outside the project, an editor that failed). A terminal editor opens in a new Shell pane: the
 * view is closed with `closeView` and the page goes to that pane, so the person types into it.
 */
export function useOpenInEditor(closeView: () => void) {
  const bridge = useBridge();
  const { pending, error, run } = usePendingAction({ clearErrorOnStart: true });
  const [opened, setOpened] = useState<string | null>(null);
  const open = (target: EditorTarget) => {
    setOpened(null);
    void run(async () => {
      const result = await bridge.call('openInEditor', target);
      if (result.agentId === undefined) return setOpened(`Opened ${target.file}:${result.line} in your editor`);
      closeView();
      goTo({ kind: 'agent', projectId: target.projectId, agentId: result.agentId });
    }, 'Could not open it in your editor: ');
  };
  return { open, pending, error, opened };
}
