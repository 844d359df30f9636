/**
 * The Electron main process: with preload.ts and electron/desktop/native/, the only files that
 * import 'electron'.
 *
 * It owns the window, the single-instance lock and the security policy. Everything stateful (the
 * databases, agents, tasks, the CLI socket) lives in the Drover host, a process of its own that
 * outlives the window: main starts it when none runs (desktop/hostSession.ts) and passes each
 * page's frames to it over the local socket, unread (desktop/pageLines.ts); no PTY and no SQLite
 * run here. The menu, updates and
 * the command line tool are started by desktop/native/desktopFeatures.ts. Each function below has
 * one job; the boot order is in `boot()`.
 */
import { app, BrowserWindow, dialog, ipcMain, Notification, session, shell } from 'electron';
import type { IpcMainEvent, Session, WebContents } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECURITY_HEADERS } from '../shared/contentSecurityPolicy';
import { BadgeCountSchema, DesktopNotificationSchema } from '../shared/desktopNotification';
import { PROTOCOL_VERSION, type RunningWork } from '../shared/host';
import { countOf } from '../shared/plural';
import {
  IPC_BADGE_CHANNEL,
  IPC_CLOSE_LINE_CHANNEL,
  IPC_LINE_CHANNEL,
  IPC_NOTIFICATION_CLICK_CHANNEL,
  IPC_NOTIFY_CHANNEL,
  IPC_OPEN_LINE_CHANNEL,
  IPC_OPEN_MACHINE_CHANNEL,
  IPC_SEND_CHANNEL,
} from '../shared/preloadBridge';
import { MachineNameSchema } from '../shared/machines';
import { parseRoute, routeHref, type Route } from '../shared/routes';
import { commandLineToolSource, detectDistribution } from './desktop/distribution';
import { parseLaunchArgs, projectForRequest, requestFromSecondInstance, type LaunchRequest } from './desktop/launchRequest';
import { cleanHostCopies, desktopHostCommand, hostCopiesDir } from './desktop/hostRuntime';
import { HostSession } from './desktop/hostSession';
import { PageLines } from './desktop/pageLines';
import { askYesNo, showError } from './desktop/native/desktopDialogs';
import { startDesktopFeatures } from './desktop/native/desktopFeatures';
import { focusWindow, showRoute } from './desktop/native/windowRoutes';
import { keepServingOnUnhandledRejection } from './host/lastResort';
import { socketPathFor } from './wire/paths';


const CLIPBOARD_PERMISSIONS = new Set(['clipboard-read', 'clipboard-sanitized-write']);

/** Bundled layout: dist/electron/{main,preload}.js next to dist/renderer/index.html. */
const PRELOAD_PATH = path.join(__dirname, 'preload.js');
const BUNDLED_RENDERER_DIR = path.join(__dirname, '..', 'renderer');
const CLI_PATH = path.join(__dirname, 'cli.js');
/** The UI the window shows: its own, or a host's of another protocol (until that host restarts). */
let indexHtmlPath = path.join(BUNDLED_RENDERER_DIR, 'index.html');

let mainWindow: BrowserWindow | null = null;
/** The windows of other machines, by machine name: each talks to that machine's host over ssh. */
const machineWindows = new Map<string, BrowserWindow>();
/** Set once the host serves: opens what a (second) launch asked for. Until then launches wait. */
let openLaunch: ((request: LaunchRequest) => void) | null = null;
const waitingLaunches: LaunchRequest[] = [];

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
    return parsed.protocol === 'file:' && fileURLToPath(parsed) === indexHtmlPath;
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

function appWindows(): BrowserWindow[] {
  return [mainWindow, ...machineWindows.values()].filter((window): window is BrowserWindow => window !== null && !window.isDestroyed());
}

/** The machine a window shows (null: this machine's own window). */
function machineOfWindow(contents: WebContents): string | null {
  for (const [machine, window] of machineWindows) if (!window.isDestroyed() && window.webContents.id === contents.id) return machine;
  return null;
}

/** Only the main frame of one of our windows, showing our index.html, may talk to a host. */
function isTrustedSender(event: IpcMainEvent): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) return false;
  return appWindows().some((window) => window.webContents.id === event.sender.id);
}

function applySessionPolicy(ses: Session): void {
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, ...Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name, [value]])) },
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

/** A window of the app: this machine's (machine null) or another machine's, opened on `route`. */
function createAppWindow(route: Route, machine: string | null): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: machine ? `Drover — ${machine}` : 'Drover',
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
    if (machine && machineWindows.get(machine) === window) machineWindows.delete(machine);
  });
  window.loadFile(indexHtmlPath, { hash: routeHref(route).slice(1), ...(machine ? { query: { machine } } : {}) }).catch((error: unknown) => log(`could not load the UI: ${errorMessage(error)}`));
  return window;
}

/** The window of another machine, on `route` when given: brought forward when it is open, opened (on its projects by default) otherwise. */
function openMachineWindow(machine: string, route: Route | null): void {
  const open = machineWindows.get(machine);
  if (open && !open.isDestroyed()) {
    focusWindow(open);
    if (route) showRoute(open, route).catch((error: unknown) => log(`could not show the page of ${machine}: ${errorMessage(error)}`));
    return;
  }
  machineWindows.set(machine, createAppWindow(route ?? { page: 'projects' }, machine));
}

function focusMainWindow(): void {
  if (mainWindow) focusWindow(mainWindow);
}

/** `--project PATH`: the project's page, adding the folder first if it is not registered yet. */
async function routeForLaunch(host: HostSession, request: LaunchRequest): Promise<Route | null> {
  try {
    const project = await projectForRequest(host, request);
    return project && { page: 'project', projectId: project.id };
  } catch (error) {
    void showError(mainWindow, `Could not open ${request.projectPath ?? 'the project'}`, errorMessage(error));
    return null;
  }
}

/** A second launch (the desktop entry, a terminal): its request goes to this window. */
function onLaunch(request: LaunchRequest): void {
  focusMainWindow();
  if (openLaunch) openLaunch(request);
  else waitingLaunches.push(request);
}

/**
 * Calls `gone` whenever the document of `contents` goes: another one committed (a reload), a crash,
 * the window's end. Not at a navigation's start: hardenWebContents cancels most of them (a link, a
 * dropped file), and the document they started from stays.
 */
function onDocumentGone(contents: WebContents, gone: () => void): void {
  contents.on('did-navigate', gone);
  contents.on('render-process-gone', gone);
  contents.once('destroyed', gone);
}

/** A line's number: the page's own, a positive integer. */
function isLineId(raw: unknown): raw is number {
  return Number.isSafeInteger(raw) && (raw as number) > 0;
}

/**
 * The page lines, after the sender check: each page's frames pass between it and connections of
 * its own to the host's socket, unread (desktop/pageLines.ts). A page's lines end with its
 * document, so a reload or crash starts afresh and nothing of a page that is gone reaches its
 * successor. This machine's window may reach any machine Drover knows (its own window's, or one it
 * follows); a machine's window only its machine.
 */
function registerPageLines(socketPath: string): void {
  const pages = new Map<number, PageLines>();
  const watched = new Set<number>();
  const linesOf = (contents: WebContents): PageLines => {
    const existing = pages.get(contents.id);
    if (existing) return existing;
    if (!watched.has(contents.id)) {
      watched.add(contents.id);
      onDocumentGone(contents, () => {
        pages.get(contents.id)?.closeAll();
        pages.delete(contents.id);
      });
    }
    // Terminal and task output cross as bytes (a Uint8Array in the page), decoded once by xterm.
    const lines = new PageLines(socketPath, (id, event) => contents.isDestroyed() || contents.send(IPC_LINE_CHANNEL, id, event));
    pages.set(contents.id, lines);
    return lines;
  };
  ipcMain.on(IPC_OPEN_LINE_CHANNEL, (event, id: unknown, raw: unknown) => {
    const machine = raw === null ? null : MachineNameSchema.safeParse(raw).data;
    const shown = machineOfWindow(event.sender);
    if (isTrustedSender(event) && isLineId(id) && machine !== undefined && (shown === null || shown === machine)) linesOf(event.sender).open(id, machine);
  });
  ipcMain.on(IPC_SEND_CHANNEL, (event, id: unknown, frame: unknown) => {
    if (isTrustedSender(event) && isLineId(id) && typeof frame === 'string') pages.get(event.sender.id)?.send(id, frame);
  });
  ipcMain.on(IPC_CLOSE_LINE_CHANNEL, (event, id: unknown) => {
    if (isTrustedSender(event) && isLineId(id)) pages.get(event.sender.id)?.close(id);
  });
  // Only this machine's window knows the machines (a machine window lists that machine's own).
  ipcMain.on(IPC_OPEN_MACHINE_CHANNEL, (event, raw: unknown, routeHash: unknown) => {
    const name = MachineNameSchema.safeParse(raw);
    if (isTrustedSender(event) && machineOfWindow(event.sender) === null && name.success) openMachineWindow(name.data, typeof routeHash === 'string' ? parseRoute(routeHash) : null);
  });
}

/** "3 agents and 1 task" and their names, for a question that would stop them. */
function describeStopping(work: RunningWork): string {
  const names = [...work.agents.map((agent) => `agent ${agent.name} (${agent.projectName})`), ...work.tasks.map((task) => `task ${task.name} (${task.projectName})`)];
  const shown = names.slice(0, 12).join('\n');
  const more = names.length > 12 ? `\n…and ${names.length - 12} more` : '';
  return `${countOf(work.agents.length, 'agent')} and ${countOf(work.tasks.length, 'task')} stop: agents end their session, running tasks end interrupted (retry them later).\n\n${shown}${more}`;
}

/** The menu's "Quit Drover and stop agents": asks when something runs, then stops the host and quits. */
async function quitAndStopHost(host: HostSession): Promise<void> {
  try {
    const { running } = await host.call('getHostStatus', {});
    const busy = running.agents.length + running.tasks.length > 0;
    if (busy && !(await askYesNo(mainWindow, 'Quit Drover and stop its agents?', describeStopping(running), 'Stop and quit'))) return;
    await host.stopHost(false);
  } catch (error) {
    log(`could not stop the host: ${errorMessage(error)}`);
  }
  app.quit();
}

/**
 * A host of another version than this window: the window shows the host's own UI when the two
 * speak different protocols, and offers to restart the host into this version, naming what a
 * restart stops. "Later" keeps everything running; the question comes again at the next start.
 */
async function offerHostRestart(host: HostSession): Promise<void> {
  const { version } = host.hello;
  if (version === app.getVersion()) return;
  const { running } = await host.call('getHostStatus', {});
  const idle = running.agents.length + running.tasks.length === 0;
  const detail = `The Drover host that runs your agents is version ${version}; this window is ${app.getVersion()}.${idle ? ' Nothing is running now.' : `\n\nRestarting it now: ${describeStopping(running)}`}`;
  if (!(await askYesNo(mainWindow, `Restart the Drover host into ${app.getVersion()}?`, detail, 'Restart the host now', 'Later'))) return;
  await host.stopHost(true);
  useRendererOf(host);
  mainWindow?.reload();
}

/** The bundled UI for a host of this protocol; the host's own UI for one of another. */
function useRendererOf(host: HostSession): void {
  const rendererDir = host.speaksOurProtocol || !host.hello.rendererDir ? BUNDLED_RENDERER_DIR : host.hello.rendererDir;
  indexHtmlPath = path.join(rendererDir, 'index.html');
  if (!host.speaksOurProtocol) log(`the host speaks protocol ${host.hello.protocol} (this window ${PROTOCOL_VERSION}): showing its own UI from ${rendererDir}`);
}

/**
 * Native notifications and the taskbar badge, on the page's request: the page applies the rules
 * (a transition into needs input, a limit, a crash or a failed task, only while its item is out of
 * view, never for a muted project), the same ones it applies to Web Notifications in a browser.
 * A click brings the window forward and tells the page which item to open.
 */
function registerAttentionIpc(): void {
  const shown = new Map<string, Notification>();
  ipcMain.on(IPC_NOTIFY_CHANNEL, (event, raw: unknown) => {
    const parsed = DesktopNotificationSchema.safeParse(raw);
    if (!isTrustedSender(event) || !parsed.success || !Notification.isSupported()) return;
    const { id, title, body, silent } = parsed.data;
    const sender = event.sender;
    shown.get(id)?.close();
    const notification = new Notification({ title, body, silent });
    shown.set(id, notification);
    notification.on('close', () => shown.get(id) === notification && shown.delete(id));
    // A click brings forward the window that asked: this machine's, or another machine's.
    notification.on('click', () => {
      const window = appWindows().find((candidate) => candidate.webContents.id === sender.id);
      if (!window) return;
      focusWindow(window);
      window.webContents.send(IPC_NOTIFICATION_CLICK_CHANNEL, id);
    });
    notification.show();
  });
  // The badge counts this machine's window only: a machine window's count would take turns with it.
  ipcMain.on(IPC_BADGE_CHANNEL, (event, raw: unknown) => {
    const parsed = BadgeCountSchema.safeParse(raw);
    if (isTrustedSender(event) && parsed.success && machineOfWindow(event.sender) === null) app.setBadgeCount(parsed.data);
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function boot(dataDir: string, launch: LaunchRequest): Promise<void> {
  keepServingOnUnhandledRejection(log);
  applySessionPolicy(session.defaultSession);
  const distribution = detectDistribution({ isPackaged: app.isPackaged, env: process.env, resourcesPath: process.resourcesPath });
  const cli = { execPath: process.execPath, cliPath: CLI_PATH };
  const sqliteBinding = resolveSqliteBinding();

  let host: HostSession;
  try {
    // The host reconciles before it serves anyone; a host that is already running is simply used.
    host = new HostSession({
      dataDir,
      socketPath: socketPathFor(dataDir),
      start: desktopHostCommand({
        distribution,
        cli,
        dataDir,
        version: app.getVersion(),
        env: sqliteBinding ? { ...process.env, DROVER_SQLITE_BINDING: sqliteBinding } : process.env,
        commandLineTool: commandLineToolSource(distribution, cli),
      }),
      log,
    });
    await host.open();
  } catch (error) {
    dialog.showErrorBox('Drover could not start', errorMessage(error));
    app.exit(1);
    return;
  }
  if (distribution.kind === 'appimage') {
    for (const removed of cleanHostCopies(hostCopiesDir(process.env), app.getVersion())) log(`removed ${removed}: no host runs from it any more`);
  }

  app.on('before-quit', () => host.close());
  useRendererOf(host);
  registerPageLines(socketPathFor(dataDir));
  registerAttentionIpc();
  mainWindow = createAppWindow((await routeForLaunch(host, launch)) ?? { page: 'projects' }, null);
  startDesktopFeatures({ host, distribution, cli, window: () => mainWindow, log, quitAndStopHost: () => void quitAndStopHost(host) }).catch((error: unknown) =>
    log(`desktop features failed: ${errorMessage(error)}`),
  );
  offerHostRestart(host).catch((error: unknown) => log(`could not offer to restart the host: ${errorMessage(error)}`));
  openLaunch = (request) => {
    routeForLaunch(host, request)
      .then((route) => {
        // This machine's window was closed while a machine's stayed open: a launch brings it back.
        if (!mainWindow) mainWindow = createAppWindow(route ?? { page: 'projects' }, null);
        else if (route) return showRoute(mainWindow, route);
      })
      .catch((error: unknown) => log(`could not show the project: ${errorMessage(error)}`));
  };
  waitingLaunches.splice(0).forEach(openLaunch);
}

function main(): void {
  const dataDir = resolveDataDir();
  const launch = parseLaunchArgs(process.argv, process.cwd());
  // The single-instance lock is keyed on userData: one Drover per data dir. A second launch hands
  // its request (`--project PATH`) over and quits.
  app.setPath('userData', dataDir);
  if (!app.requestSingleInstanceLock(launch)) {
    app.quit();
    return;
  }
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => onLaunch(requestFromSecondInstance(additionalData, argv, workingDirectory)));
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => app.quit());
  app
    .whenReady()
    .then(() => boot(dataDir, launch))
    .catch((error: unknown) => {
      log(`Drover failed to start: ${errorMessage(error)}`);
      app.quit();
    });
}

main();
