import type { ProjectOverlaps } from '../../shared/overlaps';
import { overlapNotes } from './overlapNotes';

/** What the overlap radar says of an agent, in its pane header: *overlaps beta: 2 files*, *conflicts with beta*. */
export function OverlapChips({ agentId, overlaps }: { agentId: string; overlaps: ProjectOverlaps | null }) {
  return overlapNotes(overlaps, agentId).map((note) => (
    <span key={note.key} className={`overlap-chip${note.conflict ? ' overlap-chip--conflict' : ''}`} role="note" title={note.detail} aria-label={`${note.text}. ${note.detail}`}>
      {note.text}
    </span>
  ));
}
