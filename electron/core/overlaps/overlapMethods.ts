import type { OverlapMethodName } from '../../../shared/contract/overlaps';
import type { Methods } from '../api';
import type { OverlapRadar } from './overlapRadar';

/** The overlap radar: agents whose worktrees change the same lines, and branches that would conflict. */
export function overlapMethods(radar: OverlapRadar): Methods<OverlapMethodName> {
  return {
    listOverlaps: ({ projectId }) => radar.overlaps(projectId),
  };
}
