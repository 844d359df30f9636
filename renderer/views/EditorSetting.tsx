import { useEffect, useId, useState } from 'react';
import { EDITOR_PRESETS, isTerminalEditor } from '../../shared/editor';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useAppSettings } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { TerminalEditorNote } from './TerminalEditorNote';

const CUSTOM = '';

/**
 * The editor "Open in editor" runs: a preset, or a command of the person's own. The command is
 * saved when the field is left (or Enter), a preset as soon as it is picked; the host checks both.
 */
export function EditorSetting() {
  const { trackAppSettings, updateAppSettings } = useDroverActions();
  const { settings } = useAppSettings();
  const { pending, error, run } = usePendingAction();
  const [draft, setDraft] = useState<string | null>(null);
  const hintId = useId();
  const presetId = useId();
  const commandId = useId();
  useEffect(trackAppSettings, [trackAppSettings]);
  const saved = settings?.editorCommand ?? '';
  const shown = draft ?? saved;
  const preset = EDITOR_PRESETS.find((candidate) => candidate.command === shown)?.command ?? CUSTOM;
  const save = (editorCommand: string) => {
    setDraft(editorCommand);
    void run(async () => {
      await updateAppSettings({ editorCommand });
      setDraft(null);
    }, 'Could not save the editor command: ');
  };

  return (
    <>
      <label className="field" htmlFor={presetId}>
        <span className="field-label">Editor</span>
        <select id={presetId} className="text-input" value={preset} disabled={settings === null} onChange={(event) => event.target.value !== CUSTOM && save(event.target.value)}>
          <option value={CUSTOM}>Your own command</option>
          {EDITOR_PRESETS.map((candidate) => (
            <option key={candidate.name} value={candidate.command}>
              {candidate.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field" htmlFor={commandId}>
        <span className="field-label">Editor command</span>
        <input
          id={commandId}
          className="text-input"
          spellCheck={false}
          placeholder="e.g. code -g {file}:{line}:{column}"
          value={shown}
          disabled={settings === null}
          aria-busy={pending}
          aria-describedby={hintId}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => draft !== null && draft !== saved && save(draft)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && draft !== null) save(draft);
          }}
        />
      </label>
      <p id={hintId} className="field-hint">
        What <em>Open in editor</em> runs, in the Changes view, on a file:line in a task&apos;s output and in the palette. {'{file}'},{' '}
        {'{line}'} and {'{column}'} are filled in; the command is run as it is split here (quotes group words), never through a
        shell, by the Drover host of the project&apos;s machine, and only for files of the project and its worktrees. $EDITOR as the program
        runs the host&apos;s terminal editor in a new Shell pane.
      </p>
      {isTerminalEditor(saved) && <TerminalEditorNote />}
      <FormError message={error} />
    </>
  );
}
