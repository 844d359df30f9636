import { useEffect, useState } from 'react';
import type { MethodResult } from '../../shared/contract';
import { useBridge } from '../store/StoreContext';

type HostEditor = MethodResult<'getTerminalEditor'>;

/**
 * What the terminal editor preset runs on this host ($VISUAL, else $EDITOR, as the host was
 * started with them), or that it has neither, so opening a file would be refused.
 */
export function TerminalEditorNote() {
  const bridge = useBridge();
  const [editor, setEditor] = useState<{ host: HostEditor } | { error: string } | null>(null);
  useEffect(() => {
    let current = true;
    bridge.call('getTerminalEditor', {}).then(
      (host) => current && setEditor({ host }),
      (error: unknown) => current && setEditor({ error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [bridge]);
  if (editor === null) return null;
  if ('error' in editor) return <p className="field-hint">Could not ask the host for its terminal editor: {editor.error}</p>;
  if (editor.host === null) {
    return (
      <p className="field-hint" role="status">
        Neither $VISUAL nor $EDITOR is set in the Drover host&apos;s environment, so opening a file is refused: set one before starting the host, or choose
        another editor.
      </p>
    );
  }
  return (
    <p className="field-hint" role="status">
      This host runs <code>{editor.host.command}</code> (its ${editor.host.variable}) in a new Shell pane, in the worktree of the file, which stays a shell once
      the editor exits.
    </p>
  );
}
