import type { WorktreeDiffFile } from '../../shared/entities/worktrees';
import { OptionList } from '../components/OptionList';

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
  return (
    // Focus starts here once the changes are in: j/k move through files, n/p through hunks.
    <OptionList
      label="Changed files"
      items={files}
      keyOf={(file) => file.path}
      selected={files.length > 0 ? selected : -1}
      onSelect={onSelect}
      className="changes-files"
      autoFocus
      titleOf={(file) => (file.oldPath ? `${file.oldPath} → ${file.path}` : file.path)}
    >
      {(file) => (
        <>
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
        </>
      )}
    </OptionList>
  );
}
