import type { InboxMessage } from '../../../shared/entities/inbox';
import type { DiffComment, DiffSide } from '../../../shared/turns';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { Locator } from '../locate';
import type { ProjectStore } from '../storage/projectStores';
import { commentsMessage } from './commentMessage';

/** Sent comments kept per agent (newest first) so the changes view can mark them; older ones go. */
const SENT_KEPT = 200;
/** Unsent comments an agent can collect before some are sent or deleted. */
const UNSENT_MAX = 500;

export interface NewDiffComment {
  agentId: string;
  path: string;
  side: DiffSide;
  startLine: number;
  endLine: number;
  quoted: string;
  body: string;
}

/**
 * A person's comments on lines of an agent's diff: collected per agent, then sent together as one
 * inbox message, which wakes the agent the way every message does (only once it is ready at an empty
 * prompt). Sent comments stay marked with their message.
 */
export class CommentService {
  constructor(
    private readonly locator: Locator,
    private readonly events: EventBus,
    private readonly inbox: MediatedInbox,
  ) {}

  list(agentId: string): DiffComment[] {
    const { store } = this.locator.agent(agentId);
    return store.comments.list(agentId);
  }

  add(input: NewDiffComment): DiffComment {
    const { store, agent } = this.locator.agent(input.agentId);
    if (input.endLine < input.startLine) fail('bad-request', `Line ${input.endLine} comes before line ${input.startLine}: name the first line first.`);
    if (store.comments.countUnsent(agent.id) >= UNSENT_MAX) fail('invalid-state', `${agent.name} has ${UNSENT_MAX} comments not sent yet: send or delete some first.`);
    return this.announce(store, store.comments.insert({ ...input, id: newId('c'), body: input.body.trim(), createdAt: Date.now() }));
  }

  remove(agentId: string, commentId: string): { commentId: string } {
    const { store } = this.locator.agent(agentId);
    const comment = store.comments.get(commentId);
    if (!comment || comment.agentId !== agentId) fail('not-found', `No comment ${commentId} on this agent's diff.`);
    this.forget(store, comment);
    return { commentId };
  }

  /** Posts every unsent comment as one message and marks them sent with it. */
  send(agentId: string): { message: InboxMessage; comments: DiffComment[] } {
    const { store, agent } = this.locator.agent(agentId);
    const unsent = store.comments.unsent(agentId);
    if (unsent.length === 0) fail('invalid-state', `There are no comments on ${agent.name}'s diff to send.`);
    const message = this.inbox.post(store.projectId, { agentId, kind: 'note', body: commentsMessage(unsent) });
    const sentAt = Date.now();
    const comments = store.transaction(() => unsent.map((comment) => store.comments.markSent(comment.id, message.id, sentAt)));
    for (const comment of comments) this.announce(store, comment);
    for (const id of store.comments.sentBeyond(agentId, SENT_KEPT)) {
      const old = store.comments.get(id);
      if (old) this.forget(store, old);
    }
    return { message, comments };
  }

  private forget(store: ProjectStore, comment: DiffComment): void {
    const seq = store.comments.remove(comment.id);
    this.events.emit({ name: 'diffCommentChanged', seq, projectId: store.projectId, agentId: comment.agentId, commentId: comment.id, comment: null });
  }

  private announce(store: ProjectStore, comment: DiffComment): DiffComment {
    this.events.emit({ name: 'diffCommentChanged', seq: comment.seq, projectId: store.projectId, agentId: comment.agentId, commentId: comment.id, comment });
    return comment;
  }
}
