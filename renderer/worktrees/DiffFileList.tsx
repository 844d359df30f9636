import { useEffect, useId, useRef } from 'react';
import type { WorktreeDiffFile } from '../../shared/entities';

const STATUS_LETTER: Readonly<Record<WorktreeDiffFile['status'], string>> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
  'type-changed': 'T',
};

const ORIGIN_WORDS: Readonly<Record<WorktreeDiffFile['origins'][number], string>> = {
  committed: 'committed',
  staged: 'staged',
  unstaged: 'not staged',
  untracked: 'untracked',
};

interface DiffFileListProps {
  files: readonly WorktreeDiffFile[];
  selected: number;
  onSelect(index: number): void;
}

/** The changed files with their line counts and where their changes lie; the selected one is shown in the diff. */
export function DiffFileList({ files, selected, onSelect }: DiffFileListProps) {
  const baseId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const optionId = (index: number) => `${baseId}-file-${index}`;

  // Focus starts here once the changes are in: j/k move through files, n/p through hunks.
  useEffect(() => listRef.current?.focus(), []);

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  return (
    <ul
      ref={listRef}
      role="listbox"
      aria-label="Changed files"
      tabIndex={0}
      aria-activedescendant={files.length > 0 ? optionId(selected) : undefined}
      className="changes-files"
      onKeyDown={(event) => {
        const next = event.key === 'ArrowDown' ? selected + 1 : event.key === 'ArrowUp' ? selected - 1 : null;
        if (next === null || next < 0 || next >= files.length) return;
        event.preventDefault();
        onSelect(next);
      }}
    >
      {files.map((file, index) => (
        <li
          key={file.path}
          id={optionId(index)}
          data-index={index}
          role="option"
          aria-selected={index === selected}
          className={`changes-files__item ${index === selected ? 'changes-files__item--selected' : ''}`}
          title={file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}
          onClick={() => onSelect(index)}
        >
          <span className={`changes-files__status changes-files__status--${file.status}`} aria-label={file.status}>
            {STATUS_LETTER[file.status]}
          </span>
          <span className="changes-files__path">{file.path}</span>
          <span className="changes-files__counts">
            {file.binary ? (
              'binary'
            ) : (
              <>
                <span className="changes-files__added">+{file.additions}</span> <span className="changes-files__removed">−{file.deletions}</span>
              </>
            )}
          </span>
          <span className="changes-files__origins">{file.origins.map((origin) => ORIGIN_WORDS[origin]).join(', ')}</span>
        </li>
      ))}
    </ul>
  );
}
