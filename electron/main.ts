/**
 * The Electron main process: the only main-process file that imports 'electron'.
 *
 * It owns the window, the single-instance lock and the security policy, and wires the host (which
 * owns everything else: databases, tasks, the CLI socket) to one IPC channel pair. Each function
 * below has one job; the boot order is in `boot()`.
 */
import { app, BrowserWindow, dialog, ipcMain, Notification, session, shell } from 'electron';
import type { IpcMainInvokeEvent, Session, WebContents } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../shared/contentSecurityPolicy';
import { IPC_INVOKE_CHANNEL, IPC_PUSH_CHANNEL } from '../shared/preloadBridge';
import { startHost } from './host/host';
import { keepServingOnUnhandledRejection } from './host/lastResort';
import type { Connection, DroverHost } from './host/host';


const CLIPBOARD_PERMISSIONS = new Set(['clipboard-read', 'clipboard-sanitized-write']);

/** Bundled layout: dist/electron/{main,preload}.js next to dist/renderer/index.html. */
const PRELOAD_PATH = path.join(__dirname, 'preload.js');
const INDEX_HTML_PATH = path.join(__dirname, '..', 'renderer', 'index.html');
const CLI_PATH = path.join(__dirname, 'cli.js');

let mainWindow: BrowserWindow | null = null;

function log(line: string): void {
  console.log(`[drover] ${line}`);
}

/** `DROVER_DATA_DIR` wins; otherwise Electron's per-user data dir. */
function resolveDataDir(): string {
  const fromEnv = process.env.DROVER_DATA_DIR;
  return fromEnv ? path.resolve(fromEnv) : app.getPath('userData');
}

/**
 * Electron's binding of better-sqlite3 (node_modules keeps the one built for Node's ABI).
 * Dev: built by scripts/electron-native.mjs and passed in by scripts/start-electron.mjs.
 * Packaged: shipped by electron-builder as an extra resource.
 */
function resolveSqliteBinding(): string | undefined {
  if (app.isPackaged) return path.join(process.resourcesPath, 'native', 'better_sqlite3.node');
  return process.env.DROVER_SQLITE_BINDING || undefined;
}

/** True only for our own renderer document (any query or hash). */
function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' && fileURLToPath(parsed) === INDEX_HTML_PATH;
  } catch {
    return false;
  }
}

function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Only the main frame of our window, showing our index.html, may talk to the host. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  const window = mainWindow;
  if (!frame || !window || window.isDestroyed()) return false;
  return event.sender.id === window.webContents.id && frame.parent === null && isAppUrl(frame.url);
}

function applySessionPolicy(ses: Session): void {
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  // Only the clipboard, which terminal copy/paste needs, and only for the app's own page.
  const allowed = (permission: string, url: string) => CLIPBOARD_PERMISSIONS.has(permission) && isAppUrl(url);
  ses.setPermissionRequestHandler((contents, permission, callback) => callback(allowed(permission, contents.getURL())));
  ses.setPermissionCheckHandler((contents, permission) => allowed(permission, contents?.getURL() ?? ''));
}

/** Applied to every WebContents the app ever creates: no navigation away, no new windows. */
function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    if (isExternalWebUrl(event.url)) void shell.openExternal(event.url);
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Drover',
    show: false,
    backgroundColor: '#15181d',
    webPreferences: {
      preload: PRELOAD_PATH,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.loadFile(INDEX_HTML_PATH).catch((error: unknown) => log(`could not load the UI: ${errorMessage(error)}`));
  return window;
}

function focusMainWindow(): void {
  const window = mainWindow;
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/**
 * One host connection per renderer document. A reload or crash starts a fresh one, so no
 * subscription of a page that is gone keeps pushing into its successor.
 */
function createConnectionRegistry(host: DroverHost): (contents: WebContents) => Connection {
  const connections = new Map<number, Connection>();

  const drop = (id: number): void => {
    connections.get(id)?.close();
    connections.delete(id);
  };

  const watch = (contents: WebContents): void => {
    const id = contents.id;
    contents.on('did-start-navigation', (event) => {
      if (event.isMainFrame && !event.isSameDocument) drop(id);
    });
    contents.on('render-process-gone', () => drop(id));
    contents.once('destroyed', () => drop(id));
  };

  const watched = new Set<number>();
  return (contents) => {
    const existing = connections.get(contents.id);
    if (existing) return existing;
    if (!watched.has(contents.id)) {
      watched.add(contents.id);
      watch(contents);
    }
    const connection = host.openConnection((frame) => {
      if (!contents.isDestroyed()) contents.send(IPC_PUSH_CHANNEL, frame);
    });
    connections.set(contents.id, connection);
    return connection;
  };
}

/** The single invoke channel: checks the sender, then hands the raw frame over (the host validates it). */
function registerIpc(host: DroverHost): void {
  const connectionFor = createConnectionRegistry(host);
  ipcMain.handle(IPC_INVOKE_CHANNEL, (event, raw: unknown) => {
    if (!isTrustedSender(event)) throw new Error('Drover IPC refused: the sender is not the Drover window');
    return connectionFor(event.sender).handle(raw);
  });
}

/** On quit, stop the host once (tasks, databases, socket) before letting Electron exit. */
function closeHostBeforeQuit(host: DroverHost): void {
  let state: 'open' | 'closing' | 'closed' = 'open';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    host
      .close()
      .catch((error: unknown) => log(`error while closing the host: ${errorMessage(error)}`))
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
}

const ENDED_TITLES: Partial<Record<string, string>> = { succeeded: 'Task done', failed: 'Failed', interrupted: 'Interrupted' };

/** A native notification when a task ends while the window is not focused (the page shows toasts). */
function notifyTaskEnds(host: DroverHost): void {
  host.core.events.onEvent((event) => {
    if (event.name !== 'backgroundTaskChanged' || !Notification.isSupported()) return;
    const title = ENDED_TITLES[event.task.state];
    if (!title || mainWindow?.isFocused()) return;
    const notification = new Notification({ title, body: event.task.label ?? event.task.command, silent: event.task.state === 'succeeded' });
    notification.on('click', focusMainWindow);
    notification.show();
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function boot(dataDir: string): Promise<void> {
  keepServingOnUnhandledRejection(log);
  applySessionPolicy(session.defaultSession);

  let host: DroverHost;
  try {
    // Boot reconciliation happens in here, before any window or client is served.
    host = await startHost({
      dataDir,
      version: app.getVersion(),
      sqliteNativeBinding: resolveSqliteBinding(),
      // Agent terminals get `drover` on PATH: this Electron binary running the bundled CLI as Node.
      cliCommand: [process.execPath, CLI_PATH],
      cliEnv: { ELECTRON_RUN_AS_NODE: '1' },
      log,
    });
  } catch (error) {
    dialog.showErrorBox('Drover could not start', errorMessage(error));
    app.exit(1);
    return;
  }

  closeHostBeforeQuit(host);
  registerIpc(host);
  notifyTaskEnds(host);
  mainWindow = createMainWindow();
}

function main(): void {
  const dataDir = resolveDataDir();
  // The single-instance lock is keyed on userData: one Drover per data dir.
  app.setPath('userData', dataDir);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', focusMainWindow);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => app.quit());
  app
    .whenReady()
    .then(() => boot(dataDir))
    .catch((error: unknown) => {
      log(`Drover failed to start: ${errorMessage(error)}`);
      app.quit();
    });
}

main();
