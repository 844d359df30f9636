import type { HandledAttention } from '../../../shared/attention';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStores } from '../storage/projectStores';

/**
 * The most handled keys a project keeps, the newest: a page drops the keys of items that ended,
 * and this bounds what no page was open to drop.
 */
export const HANDLED_KEPT = 10_000;

/**
 * What the person handled in each project's Needs you queue (dismissed, or opened), kept by the
 * host so the desktop window and every page, a phone's included, hide the same items. Pages derive
 * the queue; they tell the host what was handled and which handled items ended, and every page
 * hears the new set.
 */
export class HandledAttentionService {
  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
  ) {}

  get(projectId: string): HandledAttention {
    this.projects.get(projectId);
    const store = this.stores.get(projectId);
    return { projectId, seq: store.seq.current, keys: store.handledAttention.keys() };
  }

  update(projectId: string, handled: readonly string[], ended: readonly string[]): HandledAttention {
    this.projects.get(projectId);
    const foreign = [...handled, ...ended].find((key) => key.split(':')[1] !== projectId);
    if (foreign) fail('bad-request', `${foreign} is an item of another project than ${projectId}: send each project's items with its own id.`);
    const store = this.stores.get(projectId);
    const seq = store.handledAttention.change(handled, ended, Date.now(), HANDLED_KEPT);
    if (seq === null) return this.get(projectId);
    const changed: HandledAttention = { projectId, seq, keys: store.handledAttention.keys() };
    this.events.emit({ name: 'handledAttentionChanged', ...changed });
    return changed;
  }
}
