import { Command } from 'cmdk';
import { useMemo, useState } from 'react';
import { isCommandOutcome, useOfferedCommands, type PaletteCommand } from '../components/commandRegistry';
import { FormError } from '../components/FormError';
import { useModal } from '../components/useModal';
import { errorMessage } from '../format/errorMessage';
import { ariaKeyShortcuts, matchingCommands } from './paletteCommands';

/**
 * Every action the page offers right now (each component offers its own), searched fuzzily, run
 * with Enter: cmdk gives the combobox and listbox and the matching; a native modal <dialog> traps
 * focus and closes on Escape. A command that fails keeps the palette open with its reason, and
 * one whose effect shows nowhere else with what it did.
 */
export function CommandPalette({ onClose }: { onClose(): void }) {
  const dialogRef = useModal();
  const commands = useOfferedCommands();
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [search, setSearch] = useState('');
  // The palette ranks and groups the matches itself: cmdk would leave groups in their first order.
  const groups = useMemo(() => matchingCommands(commands, search), [commands, search]);

  /**
   * Closing a modal dialog hands focus back to what had it before; a command that moved focus
   * on purpose (to a field, a pane) keeps it.
   */
  function close(): void {
    const dialog = dialogRef.current;
    const focused = document.activeElement;
    dialog?.close();
    if (focused instanceof HTMLElement && focused.isConnected && !dialog?.contains(focused)) focused.focus();
  }

  async function run(command: PaletteCommand): Promise<void> {
    if (running) return;
    setError(null);
    setOutcome(null);
    const result = command.run();
    if (!result) {
      close();
      return;
    }
    setRunning(true);
    try {
      const done = await result;
      if (isCommandOutcome(done)) setOutcome(done.said);
      else close();
    } catch (failure) {
      setError(`${command.label}: ${errorMessage(failure)}`);
    } finally {
      setRunning(false);
    }
  }

  return (
    <dialog ref={dialogRef} className="dialog palette" aria-label="Command palette" onClose={onClose}>
      <Command label="Command palette" shouldFilter={false} loop>
        <Command.Input className="text-input palette__input" placeholder="Type a command…" data-autofocus aria-busy={running} value={search} onValueChange={setSearch} />
        <Command.List className="palette__list" label="Commands">
          <Command.Empty className="palette__empty">No command matches.</Command.Empty>
          {groups.map(([group, items]) => (
            <Command.Group key={group} heading={group} className="palette__group">
              {items.map((command) => (
                <Command.Item
                  key={command.id}
                  value={command.id}
                  className="palette__item"
                  aria-keyshortcuts={command.shortcut ? ariaKeyShortcuts(command.shortcut) : undefined}
                  onSelect={() => void run(command)}
                >
                  <span className="palette__label">{command.label}</span>
                  {command.shortcut && (
                    <span className="palette__keys" aria-hidden="true">
                      {command.shortcut.map((key) => (
                        <kbd key={key}>{key}</kbd>
                      ))}
                    </span>
                  )}
                </Command.Item>
              ))}
            </Command.Group>
          ))}
        </Command.List>
      </Command>
      {outcome && (
        <p role="status" className="palette__outcome">
          {outcome}
        </p>
      )}
      <FormError message={error} className="palette__error" />
    </dialog>
  );
}
