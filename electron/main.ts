/**
 * The Electron main process: with preload.ts and electron/desktop/native/, the only files that
 * import 'electron'.
 *
 * It owns the window, the single-instance lock and the security policy. Everything stateful (the
 * databases, agents, tasks, the CLI socket) lives in the Drover host, a process of its own that
 * outlives the window: main starts it when none runs (desktop/hostSession.ts) and relays each
 * page's frames to it over the local socket; no PTY and no SQLite run here. The menu, updates and
 * the command line tool are started by desktop/native/desktopFeatures.ts. Each function below has
 * one job; the boot order is in `boot()`.
 */
import { app, BrowserWindow, dialog, ipcMain, Notification, session, shell } from 'electron';
import type { IpcMainEvent, IpcMainInvokeEvent, Session, WebContents } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECURITY_HEADERS } from '../shared/contentSecurityPolicy';
import { BadgeCountSchema, DesktopNotificationSchema } from '../shared/desktopNotification';
import { PROTOCOL_VERSION, type RunningWork } from '../shared/host';
import { countOf } from '../shared/plural';
import {
  IPC_BADGE_CHANNEL,
  IPC_CONNECTION_CHANNEL,
  IPC_FOLLOW_MACHINE_CHANNEL,
  IPC_INVOKE_CHANNEL,
  IPC_NOTIFICATION_CLICK_CHANNEL,
  IPC_NOTIFY_CHANNEL,
  IPC_OPEN_MACHINE_CHANNEL,
  IPC_PUSH_CHANNEL,
  type ConnectionNotice,
  type LineName,
} from '../shared/preloadBridge';
import { MachineNameSchema, sshClientFrom } from '../shared/machines';
import { refusalFrame, requestIdOf } from '../shared/protocol';
import { parseRoute, routeHref, type Route } from '../shared/routes';
import { commandLineToolSource, detectDistribution } from './desktop/distribution';
import { parseLaunchArgs, projectForRequest, requestFromSecondInstance, type LaunchRequest } from './desktop/launchRequest';
import type { HostRelay } from './desktop/hostRelay';
import { cleanHostCopies, desktopHostCommand, hostCopiesDir } from './desktop/hostRuntime';
import { HostSession } from './desktop/hostSession';
import { MachineLine } from './desktop/machineLine';
import { askYesNo, showError } from './desktop/native/desktopDialogs';
import { startDesktopFeatures } from './desktop/native/desktopFeatures';
import { focusWindow, showRoute } from './desktop/native/windowRoutes';
import { keepServingOnUnhandledRejection } from './host/lastResort';
import { socketPathFor } from './wire/paths';
import { sshLauncher } from './wire/sshProcess';
import { spawnSshBridge } from './wire/sshRelay';


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
function isTrustedSender(event: IpcMainInvokeEvent | IpcMainEvent): boolean {
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
function openMachineWindow(machine: string, route: Route | null, lines: MachineLines): void {
  const open = machineWindows.get(machine);
  if (open && !open.isDestroyed()) {
    focusWindow(open);
    if (route) showRoute(open, route).catch((error: unknown) => log(`could not show the page of ${machine}: ${errorMessage(error)}`));
    return;
  }
  const window = createAppWindow(route ?? { page: 'projects' }, machine);
  machineWindows.set(machine, window);
  // The line starts once the page runs, so the page hears every notice of it.
  window.webContents.on('did-finish-load', () => lines.pageLoaded(window.webContents, machine));
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

/**
 * One relay to the host per renderer document, opened on its first call. A reload or crash starts
 * a fresh one, so no subscription of a page that is gone keeps pushing into its successor; so does
 * a host that went away (the page hears `lost`, then `open` once the session reached a host again).
 */
function createRelayRegistry(host: HostSession): (contents: WebContents) => Promise<HostRelay> {
  const relays = new Map<number, Promise<HostRelay>>();

  const drop = (id: number): void => {
    void relays.get(id)?.then((relay) => relay.close(), () => undefined);
    relays.delete(id);
  };

  host.onStateChange((state) => {
    for (const id of [...relays.keys()]) if (state !== 'open') drop(id);
    const window = mainWindow;
    const notice: ConnectionNotice = state === 'open' ? { state, reason: null } : { state: 'lost', reason: null, stopped: state === 'stopped' };
    if (window && !window.isDestroyed()) window.webContents.send(IPC_CONNECTION_CHANNEL, notice);
  });

  const watched = new Set<number>();
  return (contents) => {
    const existing = relays.get(contents.id);
    if (existing) return existing;
    if (!watched.has(contents.id)) {
      watched.add(contents.id);
      onDocumentGone(contents, () => drop(contents.id));
    }
    // Terminal and task output cross as bytes (a Uint8Array in the page), decoded once by xterm.
    const relay = host.openRelay((frame) => {
      if (!contents.isDestroyed()) contents.send(IPC_PUSH_CHANNEL, frame);
    });
    relays.set(contents.id, relay);
    void relay.then(
      (open) => open.closed.then(() => relays.get(contents.id) === relay && relays.delete(contents.id)),
      () => relays.get(contents.id) === relay && relays.delete(contents.id),
    );
    return relay;
  };
}

interface MachineLines {
  /** A machine window's page loaded: its own line to that machine starts (the one of the page before it is gone by now). */
  pageLoaded(contents: WebContents, machine: string): void;
  /** This machine's window follows another machine on a line of its own, or stops following it. */
  follow(contents: WebContents, machine: string, following: boolean): void;
  /** The line a frame of the page goes on: a machine window's own (null), or the one to a followed machine. */
  lineOf(contents: WebContents, line: LineName): MachineLine | undefined;
}

/**
 * The lines of the windows' documents to other machines' hosts, each over an ssh bridge of its own
 * (the person's ssh, as `DROVER_SSH_COMMAND` names it); the local host keeps the machines' records
 * and installs this version of the host on one first when it is missing. Everything a line sends
 * the page names the line, so one page can follow several machines.
 */
function createMachineLines(host: HostSession): MachineLines {
  const launchSsh = sshLauncher(sshClientFrom(process.env));
  const lines = new Map<string, MachineLine>();
  const watched = new Set<number>();
  const keyOf = (contents: WebContents, line: LineName): string => `${contents.id}/${line ?? ''}`;
  const drop = (key: string): void => {
    lines.get(key)?.close();
    lines.delete(key);
  };
  const start = (contents: WebContents, machine: string, line: LineName): void => {
    if (!watched.has(contents.id)) {
      watched.add(contents.id);
      onDocumentGone(contents, () => [...lines.keys()].filter((key) => key.startsWith(`${contents.id}/`)).forEach(drop));
    }
    const send = (channel: string, value: unknown): void => {
      if (!contents.isDestroyed()) contents.send(channel, value, line);
    };
    lines.set(
      keyOf(contents, line),
      new MachineLine({
        machine,
        version: app.getVersion(),
        openBridge: async () => spawnSshBridge(launchSsh, (await host.call('updateMachineHost', { name: machine })).machine),
        push: (frame) => send(IPC_PUSH_CHANNEL, frame),
        notify: (notice) => send(IPC_CONNECTION_CHANNEL, notice),
      }),
    );
  };
  return {
    pageLoaded(contents, machine) {
      drop(keyOf(contents, null));
      start(contents, machine, null);
    },
    follow(contents, machine, following) {
      const key = keyOf(contents, machine);
      if (!following) return drop(key);
      const existing = lines.get(key);
      // Followed again before the last page's line went: the page hears where it stands.
      const notice = existing?.lastNotice();
      if (notice) contents.send(IPC_CONNECTION_CHANNEL, notice, machine);
      if (!existing) start(contents, machine, machine);
    },
    lineOf: (contents, line) => lines.get(keyOf(contents, line)),
  };
}

/**
 * The single invoke channel: checks the sender, then hands the raw frame to the line it names (the
 * host validates it): the page's relay to this machine's host, its machine window's line, or the
 * line to a machine it follows. A page asks for another machine's window by name.
 */
function registerIpc(host: HostSession): void {
  const relayFor = createRelayRegistry(host);
  const machineLines = createMachineLines(host);
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, raw: unknown, rawLine: unknown) => {
    if (!isTrustedSender(event)) throw new Error('Drover IPC refused: the sender is not a Drover window');
    const line = rawLine === null || rawLine === undefined ? null : MachineNameSchema.safeParse(rawLine).data;
    if (line === undefined) throw new Error('Drover IPC refused: a line is a machine name, or null for the window\'s own');
    const machine = machineOfWindow(event.sender);
    if (line === null && machine === null) return (await relayFor(event.sender)).invoke(raw);
    const machineLine = machineLines.lineOf(event.sender, line);
    // Answered as a host answers a call it cannot serve, so the page shows these words alone.
    return machineLine ? machineLine.invoke(raw) : refusalFrame(requestIdOf(raw), 'internal', `Not connected to ${line ?? machine} yet.`);
  });
  // Only this machine's window knows the machines (a machine window lists that machine's own).
  const fromOwnWindow = (event: IpcMainEvent): boolean => isTrustedSender(event) && machineOfWindow(event.sender) === null;
  ipcMain.on(IPC_FOLLOW_MACHINE_CHANNEL, (event, raw: unknown, following: unknown) => {
    const name = MachineNameSchema.safeParse(raw);
    if (fromOwnWindow(event) && name.success && typeof following === 'boolean') machineLines.follow(event.sender, name.data, following);
  });
  ipcMain.on(IPC_OPEN_MACHINE_CHANNEL, (event, raw: unknown, routeHash: unknown) => {
    const name = MachineNameSchema.safeParse(raw);
    if (fromOwnWindow(event) && name.success) openMachineWindow(name.data, typeof routeHash === 'string' ? parseRoute(routeHash) : null, machineLines);
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
  registerIpc(host);
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
