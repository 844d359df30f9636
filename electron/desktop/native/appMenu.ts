import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface AppMenuActions {
  installCommandLineTool(): void;
  openSettings(): void;
  /** Stops the host too: its agents and tasks (the plain Quit leaves them running). */
  quitAndStopHost(): void;
  /** Present only where the app updates itself (the AppImage). */
  updates: { checkNow(): void; automatic: boolean; setAutomatic(on: boolean): void } | null;
}

/**
 * The application menu: Drover's own commands first (the command line tool, settings, updates,
 * quitting with or without stopping the host),
 * then Electron's standard Edit, View and Window menus (copy and paste in terminals, zoom, reload).
 * Built again whenever what it shows changes (the automatic-updates tick).
 */
export function setAppMenu(actions: AppMenuActions): void {
  const updateItems: MenuItemConstructorOptions[] = actions.updates
    ? [
        { type: 'separator' },
        { label: 'Check for updates…', click: actions.updates.checkNow },
        {
          label: 'Check for updates automatically',
          type: 'checkbox',
          checked: actions.updates.automatic,
          click: (item) => actions.updates?.setAutomatic(item.checked),
        },
      ]
    : [];
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'Drover',
      submenu: [
        { label: 'Install command line tool…', click: actions.installCommandLineTool },
        { label: 'Settings', accelerator: 'CmdOrCtrl+,', click: actions.openSettings },
        ...updateItems,
        { type: 'separator' },
        { label: 'Quit Drover and stop agents…', click: actions.quitAndStopHost },
        { role: 'quit', label: 'Quit (agents keep running)' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
