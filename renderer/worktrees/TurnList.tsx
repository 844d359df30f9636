import { useEffect, useId, useRef } from 'react';
import { countOf } from '../../shared/plural';
import { promptHeadline, type Turn } from '../../shared/turns';
import { useNow } from '../components/useNow';
import { formatClockTime } from '../format/clockTime';

/** A checkpoint's title in the list: the turn's prompt, the start, or the state a restore kept. */
export function turnTitle(turn: Turn): string {
  if (turn.kind === 'start') return 'Start';
  if (turn.kind === 'restore') return `Before restoring ${turn.restoredTo ?? '?'}`;
  return promptHeadline(turn.prompt, 80) ?? 'Turn';
}

interface TurnListProps {
  turns: readonly Turn[];
  /** The checkpoint the diff is about; null for the whole branch. */
  selected: number | null;
  onSelect(n: number): void;
}

/** An agent's checkpoints, newest first: when, what was asked, files and lines it changed. */
export function TurnList({ turns, selected, onSelect }: TurnListProps) {
  const baseId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const newestFirst = [...turns].reverse();
  const at = newestFirst.findIndex((turn) => turn.n === selected);
  const now = useNow(false);

  useEffect(() => {
    listRef.current?.querySelector(`[data-turn="${selected ?? ''}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  return (
    <ul
      ref={listRef}
      role="listbox"
      aria-label="Turns"
      tabIndex={0}
      aria-activedescendant={at >= 0 ? `${baseId}-turn-${selected ?? ''}` : undefined}
      className="changes-turns"
      onKeyDown={(event) => {
        const next = event.key === 'ArrowDown' ? newestFirst[at + 1] : event.key === 'ArrowUp' ? newestFirst[Math.max(0, at - 1)] : undefined;
        if (!next) return;
        event.preventDefault();
        onSelect(next.n);
      }}
    >
      {newestFirst.map((turn) => (
        <li
          key={turn.n}
          id={`${baseId}-turn-${turn.n}`}
          data-turn={turn.n}
          role="option"
          aria-selected={turn.n === selected}
          className={`changes-turns__item ${turn.n === selected ? 'changes-turns__item--selected' : ''}`}
          title={turn.prompt ?? undefined}
          onClick={() => onSelect(turn.n)}
        >
          <span className="changes-turns__n">{turn.n}</span>
          <span className="changes-turns__title">{turnTitle(turn)}</span>
          <span className="changes-turns__time">{formatClockTime(turn.takenAt, now)}</span>
          <span className="changes-turns__counts">
            {countOf(turn.files, 'file')} <span className="changes-files__added">+{turn.additions}</span> <span className="changes-files__removed">−{turn.deletions}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
