import type { AppSettings, AppSettingsSnapshot } from '../../../shared/appSettings';
import type { EventBus } from '../events/eventBus';
import type { AppSettingsTable } from '../storage/appSettingsTable';

/** The app settings and the one place that announces their changes, with the app-wide seq. */
export class AppSettingsService {
  constructor(
    private readonly table: AppSettingsTable,
    private readonly events: EventBus,
  ) {}

  read(): AppSettingsSnapshot {
    return this.table.read();
  }

  update(change: Partial<AppSettings>): AppSettingsSnapshot {
    const updated = this.table.update(change);
    this.events.emit({ name: 'appSettingsChanged', seq: updated.seq, settings: updated.settings });
    return updated;
  }
}
