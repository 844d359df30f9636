import { countOf } from '../../shared/plural';
import { promptHeadline, type Turn } from '../../shared/turns';
import { OptionList } from '../components/OptionList';
import { useNow } from '../components/useNow';
import { formatClockTime } from '../format/clockTime';

/** A checkpoint's title in the list: the turn's prompt, the start, or the state a restore or a revert kept. */
export function turnTitle(turn: Turn): string {
  if (turn.kind === 'start') return 'Start';
  if (turn.kind === 'restore') return `Before restoring ${turn.restoredTo ?? '?'}`;
  if (turn.kind === 'revert') return `Before reverting ${turn.prompt ?? 'a change'}`;
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
  const newestFirst = [...turns].reverse();
  const now = useNow(false);
  return (
    <OptionList
      label="Turns"
      items={newestFirst}
      keyOf={(turn) => String(turn.n)}
      selected={newestFirst.findIndex((turn) => turn.n === selected)}
      onSelect={(index) => {
        const turn = newestFirst[index];
        if (turn) onSelect(turn.n);
      }}
      className="changes-turns"
      titleOf={(turn) => turn.prompt ?? undefined}
    >
      {(turn) => (
        <>
          <span className="changes-turns__n">{turn.n}</span>
          <span className="changes-turns__title">{turnTitle(turn)}</span>
          <span className="changes-turns__time">{formatClockTime(turn.takenAt, now)}</span>
          <span className="changes-turns__counts">
            {countOf(turn.files, 'file')} <span className="changes-files__added">+{turn.additions}</span> <span className="changes-files__removed">−{turn.deletions}</span>
          </span>
        </>
      )}
    </OptionList>
  );
}
