import type { AppSettingsMethodName } from '../../../shared/contract/appSettings';
import type { Methods } from '../api';
import type { EventBus } from '../events/eventBus';
import type { AppSettingsTable } from '../storage/appSettingsTable';

/** App settings: read them, change some; every change is announced with the app-wide seq. */
export function appSettingsMethods(table: AppSettingsTable, events: EventBus): Methods<AppSettingsMethodName> {
  return {
    getAppSettings: () => table.read(),
    updateAppSettings: ({ settings }) => {
      const updated = table.update(settings);
      events.emit({ name: 'appSettingsChanged', seq: updated.seq, settings: updated.settings });
      return updated;
    },
  };
}
