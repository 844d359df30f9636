import { useEffect } from 'react';
import { useAppSettings } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { resolveTheme, showTheme } from './shownTheme';

/**
 * Shows the theme the host's setting asks for, and with `system`, follows the system's colour
 * scheme as it changes. Until the setting arrives, the page keeps what index.html showed.
 */
export function useThemeSetting(): void {
  const { trackAppSettings } = useDroverActions();
  const choice = useAppSettings().settings?.theme;
  useEffect(trackAppSettings, [trackAppSettings]);
  useEffect(() => {
    if (!choice) return;
    const systemLight = window.matchMedia('(prefers-color-scheme: light)');
    const show = () => showTheme(resolveTheme(choice, systemLight.matches));
    show();
    if (choice !== 'system') return;
    systemLight.addEventListener('change', show);
    return () => systemLight.removeEventListener('change', show);
  }, [choice]);
}
