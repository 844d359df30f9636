import type { SearchAddon } from '@xterm/addon-search';
import { useState, type KeyboardEvent } from 'react';

interface TerminalSearchBarProps {
  search: SearchAddon;
  /** Names the field, e.g. "Search Ada terminal". */
  label: string;
  onClose(): void;
}

/** Find in the scrollback: Enter goes to the next match, Shift+Enter to the previous, Esc closes. */
export function TerminalSearchBar({ search, label, onClose }: TerminalSearchBarProps) {
  const [query, setQuery] = useState('');
  const [missing, setMissing] = useState(false);

  function find(direction: 'next' | 'previous', term = query): void {
    if (!term) {
      search.clearDecorations();
      setMissing(false);
      return;
    }
    const found = direction === 'next' ? search.findNext(term, { incremental: true }) : search.findPrevious(term);
    setMissing(!found);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key === 'Enter') {
      event.preventDefault();
      find(event.shiftKey ? 'previous' : 'next');
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  }

  return (
    <div className="terminal-search" role="search">
      <input
        type="search"
        className="text-input terminal-search__input"
        aria-label={label}
        aria-invalid={missing}
        placeholder="Find in scrollback"
        autoFocus
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          find('next', event.target.value);
        }}
        onKeyDown={onKeyDown}
      />
      {missing && <span className="terminal-search__missing">No matches</span>}
      <button type="button" className="button button--ghost button--icon" aria-label="Previous match" title="Previous match (Shift+Enter)" onClick={() => find('previous')}>
        ↑
      </button>
      <button type="button" className="button button--ghost button--icon" aria-label="Next match" title="Next match (Enter)" onClick={() => find('next')}>
        ↓
      </button>
      <button type="button" className="button button--ghost button--icon" aria-label="Close search" title="Close (Esc)" onClick={onClose}>
        ×
      </button>
    </div>
  );
}
