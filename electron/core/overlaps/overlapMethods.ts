import type { OverlapMethodName } from '../../../shared/contract/overlaps';
import type { Methods } from '../api';
import type { OverlapRadar } from './overlapRadar';
import type { OverlapTeller } from './overlapTeller';

/** The overlap radar: agents whose worktrees change the same lines, and branches that would conflict; telling two conflicting agents so. */
export function overlapMethods(radar: OverlapRadar, teller: OverlapTeller): Methods<OverlapMethodName> {
  return {
    listOverlaps: ({ projectId }) => radar.overlaps(projectId),
    tellOverlapAgents: ({ projectId, agents }) => teller.tell(projectId, agents),
  };
}
