import type { EventBus } from '../events/eventBus';
import { noticeOf } from '../storage/automationStore';
import type { ProjectStores } from '../storage/projectStores';

/** Tells every client that an automation was added, paused, resumed or removed (the Needs you queue reads a self-paused one). */
export class AutomationAnnouncer {
  constructor(
    private readonly events: EventBus,
    private readonly stores: ProjectStores,
  ) {}

  changed(projectId: string, automationId: string): void {
    const automation = this.stores.get(projectId).automations.get(automationId);
    if (!automation) return;
    this.events.emit({ name: 'automationChanged', seq: automation.seq, projectId, automationId, automation: noticeOf(projectId, automation) });
  }

  removed(projectId: string, automationId: string, seq: number): void {
    this.events.emit({ name: 'automationChanged', seq, projectId, automationId, automation: null });
  }
}
