import { EXTRA_KEYS, type ExtraKey } from './extraKeys';

interface TerminalKeysRowProps {
  /** "<agent name> terminal": the row is named after it. */
  label: string;
  controlLatched: boolean;
  onKey(key: ExtraKey['key']): void;
}

/**
 * The keys a phone's keyboard lacks (Esc, Tab, Ctrl, arrows, Enter), under an agent's terminal.
 * A press keeps the focus, and so the phone's keyboard, in the terminal.
 */
export function TerminalKeysRow({ label, controlLatched, onKey }: TerminalKeysRowProps) {
  return (
    <div role="toolbar" aria-label={`Keys for ${label}`} className="terminal-keys">
      {EXTRA_KEYS.map(({ key, label: shown, name }) => (
        <button
          key={key}
          type="button"
          className="terminal-keys__key"
          aria-label={name}
          aria-pressed={key === 'Control' ? controlLatched : undefined}
          onPointerDown={(event) => event.preventDefault()}
          onClick={() => onKey(key)}
        >
          {shown}
        </button>
      ))}
    </div>
  );
}
