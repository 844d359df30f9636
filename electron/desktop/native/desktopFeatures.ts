import { describeCommandLineTool } from '../../../shared/commandLineTool';
import { refreshCommandLineTool } from '../../core/commandLineTool/commandLineTool';
import { commandLineToolSource, type Distribution } from '../distribution';
import { errorText } from '../errorText';
import { startAppImageUpdates, type DesktopContext } from './appImageUpdates';
import { setAppMenu } from './appMenu';
import { showError, showInfo } from './desktopDialogs';
import { showRoute } from './windowRoutes';

export interface DesktopFeatureOptions extends DesktopContext {
  distribution: Distribution;
  /** The menu's "Quit Drover and stop agents". */
  quitAndStopHost(): void;
}

/**
 * What the desktop app adds to the shared UI: the application menu ("Install command line tool",
 * Settings, updates), the AppImage's self-update following the app setting, and an installed
 * `drover` launcher kept pointing at wherever the AppImage now lives.
 */
export async function startDesktopFeatures({ host, distribution, cli, window, log, quitAndStopHost }: DesktopFeatureOptions): Promise<void> {
  if (distribution.kind === 'appimage') {
    try {
      if (refreshCommandLineTool(commandLineToolSource(distribution, cli), process.env)) log(`the drover launcher now runs ${distribution.appImage}`);
    } catch (error) {
      log(`could not update the drover launcher: ${errorText(error)}`);
    }
  }

  const installCommandLineTool = (): void => {
    host.call('installCommandLineTool', {}).then(
      (result) => showInfo(window(), 'The drover command is installed', describeCommandLineTool(result).join('\n\n')),
      (error: unknown) => showError(window(), 'Could not install the command line tool', errorText(error)),
    );
  };
  const openSettings = (): void => {
    const current = window();
    if (current) showRoute(current, { page: 'settings' }).catch((error: unknown) => log(`could not open the settings: ${errorText(error)}`));
  };

  const updates = distribution.kind === 'appimage' ? startAppImageUpdates({ host, cli, window, log }) : null;
  let automatic = (await host.call('getAppSettings', {})).settings.checkForUpdates;
  const setAutomatic = (on: boolean): void => {
    host.call('updateAppSettings', { settings: { checkForUpdates: on } }).catch((error: unknown) => void showError(window(), 'Could not save the setting', errorText(error)));
  };
  const renderMenu = (): void =>
    setAppMenu({ installCommandLineTool, openSettings, quitAndStopHost, updates: updates && { checkNow: () => void updates.checkNow(), automatic, setAutomatic } });

  updates?.setAutomatic(automatic);
  renderMenu();
  host.onEvent((event) => {
    if (event.name !== 'appSettingsChanged') return;
    automatic = event.settings.checkForUpdates;
    updates?.setAutomatic(automatic);
    renderMenu();
  });
}
