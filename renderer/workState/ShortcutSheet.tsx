import { ModalDialog } from '../components/ModalDialog';
import { AGENT_SHORTCUTS } from '../keyboard/agentShortcuts';
import { APP_SHORTCUTS } from '../keyboard/appShortcuts';
import { DIFF_SHORTCUTS } from '../keyboard/diffShortcuts';
import { DIALOG_SHORTCUTS, GLOBAL_SHORTCUTS, LIST_SHORTCUTS, OUTPUT_SHORTCUTS } from '../keyboard/shortcuts';

const SECTIONS = [
  { title: 'Task list', shortcuts: LIST_SHORTCUTS },
  { title: 'Task output', shortcuts: OUTPUT_SHORTCUTS },
  { title: 'Agent terminals', shortcuts: AGENT_SHORTCUTS },
  { title: 'Changes of an agent', shortcuts: DIFF_SHORTCUTS },
  { title: 'Anywhere', shortcuts: [...APP_SHORTCUTS, ...GLOBAL_SHORTCUTS, ...DIALOG_SHORTCUTS] },
];

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  return (
    <ModalDialog title="Keyboard shortcuts" className="shortcut-sheet" onClose={onClose}>
      {SECTIONS.map((section) => (
        <section key={section.title} className="shortcut-sheet__section">
          <h3 className="shortcut-sheet__heading">{section.title}</h3>
          <dl className="shortcut-sheet__list">
            {section.shortcuts.map((shortcut) => (
              <div key={shortcut.description} className="shortcut-sheet__item">
                <dt>
                  {shortcut.display.map((key, index) => (
                    <kbd key={index}>{key}</kbd>
                  ))}
                </dt>
                <dd>{shortcut.description}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </ModalDialog>
  );
}
