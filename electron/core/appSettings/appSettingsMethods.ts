import type { Methods } from '../api';
import type { AppSettingsService } from './appSettingsService';

/** App settings: read them, change some. */
export function appSettingsMethods(settings: AppSettingsService): Methods<'getAppSettings' | 'updateAppSettings'> {
  return {
    getAppSettings: () => settings.read(),
    updateAppSettings: ({ settings: change }) => settings.update(change),
  };
}
