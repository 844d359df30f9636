import type { AttentionMethodName } from '../../../shared/contract/attention';
import type { Methods } from '../api';
import type { HandledAttentionService } from './handledAttention';

/** What the person handled in the Needs you queue, the same on every page. */
export function attentionMethods(handled: HandledAttentionService): Methods<AttentionMethodName> {
  return {
    getHandledAttention: ({ projectId }) => handled.get(projectId),
    updateHandledAttention: ({ projectId, handled: keys, ended }) => handled.update(projectId, keys, ended),
  };
}
