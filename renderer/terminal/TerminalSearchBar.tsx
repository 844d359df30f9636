import type { SearchAddon } from '@xterm/addon-search';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { shownTheme } from '../components/shownTheme';
import { searchDecorations } from './terminalTheme';

interface TerminalSearchBarProps {
  search: SearchAddon;
  /** Names the field, e.g. "Search Ada terminal". */
  label: string;
  onClose(): void;
}

/** What the addon reports: which match is current (-1 past its highlight limit) of how many. */
interface Results {
  index: number;
  count: number;
}

function describeResults({ index, count }: Results): string {
  if (count === 0) return 'No matches';
  return index < 0 ? `More than ${count} matches` : `${index + 1} of ${count}`;
}

/**
 * Find in the scrollback: Enter goes to the next match, Shift+Enter to the previous, Esc closes;
 * it says which match is shown of how many.
 */
export function TerminalSearchBar({ search, label, onClose }: TerminalSearchBarProps) {
  const [query, setQuery] = useState('');
  const [missing, setMissing] = useState(false);
  const [results, setResults] = useState<Results | null>(null);
  useEffect(() => {
    const listener = search.onDidChangeResults(({ resultIndex, resultCount }) => setResults({ index: resultIndex, count: resultCount }));
    return () => listener.dispose();
  }, [search]);

  function find(direction: 'next' | 'previous', term = query): void {
    if (!term) {
      search.clearDecorations();
      setMissing(false);
      setResults(null);
      return;
    }
    const decorations = searchDecorations(shownTheme());
    const found = direction === 'next' ? search.findNext(term, { incremental: true, decorations }) : search.findPrevious(term, { decorations });
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
      {query && (missing || results) && (
        <span className="terminal-search__results" role="status" data-missing={missing || results?.count === 0 ? '' : undefined}>
          {missing ? 'No matches' : describeResults(results as Results)}
        </span>
      )}
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
