import { isMergeQueueSettled, type MergeQueueEntry } from '../../shared/entities/mergeQueue';

/** Whether the entry still waits or is under way (queueing it again is refused then). */
export function isInMergeQueue(entry: MergeQueueEntry | undefined): boolean {
  return entry !== undefined && !isMergeQueueSettled(entry.state);
}

function stateText(entry: MergeQueueEntry): string {
  switch (entry.state) {
    case 'queued':
      return `queued for ${entry.parentBranch}`;
    case 'rebasing':
      return `rebasing on ${entry.parentBranch}`;
    case 'checking':
      return 'checking for merge';
    case 'merged':
      return `merged into ${entry.parentBranch}`;
    case 'handed-back':
      return 'handed back';
  }
}

/** Where the agent's branch is in the merge queue of its parent (pane header); why, when it was handed back. */
export function MergeQueueChip({ entry }: { entry: MergeQueueEntry }) {
  const why = entry.reason ? `: ${entry.reason}` : '';
  return (
    <span className="merge-queue-chip" data-state={entry.state} title={`Merge queue of ${entry.parentBranch}: ${entry.branch} ${entry.state}${why}`}>
      {stateText(entry)}
    </span>
  );
}
