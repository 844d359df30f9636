import type { ForgeLink } from '../../../shared/forge';
import type { EventBus } from '../events/eventBus';
import type { ForgeLinkChange } from '../storage/forgeLinkStore';
import type { ProjectStore } from '../storage/projectStores';

/**
 * The one place an agent's tie to the forge is changed and announced: the issue service ties a new
 * agent to its issue, the pull request service ties it to its pull request and what was sent of it.
 */
export function saveForgeLink(events: EventBus, store: ProjectStore, agentId: string, change: ForgeLinkChange): ForgeLink {
  const link = store.forgeLinks.update(agentId, change);
  events.emit({ name: 'agentForgeChanged', seq: link.seq, projectId: store.projectId, agentId, link });
  return link;
}
