import type { AppSettingsMethodName } from '../../../shared/contract/appSettings';
import type { Methods } from '../api';
import type { AppSettingsService } from './appSettingsService';

/** App settings: read them, change some. */
export function appSettingsMethods(settings: AppSettingsService): Methods<AppSettingsMethodName> {
  return {
    getAppSettings: () => settings.read(),
    updateAppSettings: ({ settings: change }) => settings.update(change),
  };
}
