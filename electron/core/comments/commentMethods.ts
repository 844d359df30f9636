import type { CommentMethodName } from '../../../shared/contract/comments';
import type { Methods } from '../api';
import type { CommentService } from './commentService';

/** Comments on an agent's diff: written, listed, deleted, and sent to its inbox together. */
export function commentMethods(comments: CommentService): Methods<CommentMethodName> {
  return {
    listDiffComments: ({ agentId }) => comments.list(agentId),
    addDiffComment: (input) => comments.add(input),
    deleteDiffComment: ({ agentId, commentId }) => comments.remove(agentId, commentId),
    sendDiffComments: ({ agentId }) => comments.send(agentId),
  };
}
