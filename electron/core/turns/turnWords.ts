import { countOf } from '../../../shared/plural';
import { checkpointLabel, type Turn } from '../../../shared/turns';

/** The note an agent gets when a person put its worktree back as a checkpoint had it. */
export function restoredNote(target: Turn, undo: Turn): string {
  const what = undo.files === 0 ? 'nothing differed, so no file changed' : `${countOf(undo.files, 'file')} changed back (+${undo.additions} −${undo.deletions})`;
  return (
    `A person restored your worktree to checkpoint ${target.n}, ${checkpointLabel(target)}: ${what}. ` +
    `Your files, index and HEAD are as they were then. What the worktree held just before is kept as checkpoint ${undo.n}, so this can be undone. ` +
    `Look at the files again before you go on.`
  );
}

/** The note an agent gets when a person reverted a hunk or a file of its change. */
export function revertedNote(what: string, undo: Turn): string {
  return (
    `A person reverted ${what} in your worktree (+${undo.additions} −${undo.deletions} in its files; the index and HEAD are as they were). ` +
    `What the worktree held just before is kept as checkpoint ${undo.n}, so this can be undone. Look at the files again before you go on.`
  );
}
