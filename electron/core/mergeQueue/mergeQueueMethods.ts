import type { MergeQueueMethodName } from '../../../shared/contract/mergeQueue';
import type { Methods } from '../api';
import type { MergeQueueService } from './mergeQueueService';

/** The merge queues: what waits to land on each parent branch, queued and taken out. */
export function mergeQueueMethods(queue: MergeQueueService): Methods<MergeQueueMethodName> {
  return {
    listMergeQueue: ({ projectId }) => queue.list(projectId),
    queueForMerge: ({ agentId }) => queue.add(agentId),
    removeFromMergeQueue: ({ agentId }) => queue.remove(agentId),
    moveInMergeQueue: ({ agentId, place }) => queue.move(agentId, place),
  };
}
