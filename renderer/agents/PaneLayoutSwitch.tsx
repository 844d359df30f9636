import { PANE_LAYOUTS, type PaneLayout } from '../store/workspaceView';
import { PANE_LAYOUT_NAMES } from './agentCommands';

/** The project's pane layout, as radio buttons (arrow keys move the choice). */
export function PaneLayoutSwitch({ layout, onChange }: { layout: PaneLayout; onChange(layout: PaneLayout): void }) {
  return (
    <div role="radiogroup" aria-label="Pane layout" className="segmented">
      {PANE_LAYOUTS.map((value) => (
        <label key={value} className="segmented__option">
          <input type="radio" name="pane-layout" value={value} checked={layout === value} onChange={() => onChange(value)} />
          <span>{PANE_LAYOUT_NAMES[value]}</span>
        </label>
      ))}
    </div>
  );
}
