import path from 'node:path';
import { PROTOCOL_VERSION } from '../../shared/host';
import { sshClientFrom } from '../../shared/machines';
import { createCore, type Core, type CoreOptions } from '../core/compose';
import { readProcessStartTime } from '../core/process/processGroup';
import { lockDataDir } from '../core/storage/dataDirLock';
import { openConnection, type Connection, type Door, type HostMethods } from './connection';
import type { HostPush } from '../wire/frameCodec';
import { HOST_LOG_FILE, readHostRecord, removeHostRecord, writeHostRecord } from './hostRecord';
import { startLocalSocketServer } from './localSocketServer';
import { openMachinePage, type MachineDoorHost } from './machineDoor';
import { socketPathFor } from '../wire/paths';
import { sshLauncher } from '../wire/sshProcess';
import { spawnSshBridge, type SshBridge } from '../wire/sshRelay';
import { enforcePrivateDataDir } from './privateDataDir';
import { RequestLedger } from './requestLedger';
import { listRunningWork } from './runningWork';
import { WebDoors } from './webDoors';

export type { Connection } from './connection';

/** The core's options, but for the socket the host binds itself, and what only a host serves. */
export interface HostOptions extends Omit<CoreOptions, 'socketPath'> {
  /** The built UI the browser doors serve, and a window of another version shows (default: beside this bundle). */
  rendererDir?: string;
  /** Where this host's log goes, as `drover host status` reports it. */
  logFile?: string;
}

export interface DroverHost {
  dataDir: string;
  /** This Drover's version. */
  version: string;
  log(line: string): void;
  socketPath: string;
  core: Core;
  openConnection(push: (frame: HostPush) => void, door?: Door): Connection;
  /** A bridge to the host of the machine of that name (a page of it goes over it), or null when there is none. */
  openMachine(name: string): Promise<SshBridge | null>;
  /** Resolves once the host has stopped: asked to (`stopHost`) or closed. */
  stopped: Promise<void>;
  close(): Promise<void>;
}

function anotherHostRuns(dataDir: string): Error {
  const record = readHostRecord(dataDir);
  const who = record ? ` (pid ${record.pid}, Drover ${record.version}, since ${new Date(record.startedAt).toLocaleString()})` : '';
  return new Error(`Another Drover host is running on the data dir ${dataDir}${who}. Use it (drover host status), or stop it first (drover host stop).`);
}

/**
 * The composition root every host shares: takes the data dir's lock (one host per data dir, held
 * until this process ends), binds the local socket, builds and reconciles the core, then serves.
 * Connections that arrive while the core boots wait. The host outlives its clients: only `stopHost`
 * (or close) stops it, and with it every agent and task, as a quit did before.
 */
export async function startHost(options: HostOptions): Promise<DroverHost> {
  const log = options.log ?? (() => {});
  const { dataDir } = options;
  enforcePrivateDataDir(dataDir, log);
  const lock = lockDataDir(dataDir, options.sqliteNativeBinding);
  if (!lock) throw anotherHostRuns(dataDir);
  const socketPath = socketPathFor(dataDir);
  const startedAt = Date.now();
  const rendererDir = options.rendererDir ?? path.join(__dirname, '..', 'renderer');
  const logFile = options.logFile ?? path.join(dataDir, HOST_LOG_FILE);

  let connections = 0;
  let close: () => Promise<void> = async () => {};
  /** Made as the host starts; its own methods may be asked for before (and answer that it is starting). */
  const started: { core?: Core; doors?: WebDoors } = {};
  const requireCore = (): Core => {
    if (!started.core) throw new Error('The host is still starting.');
    return started.core;
  };
  const hostMethods: HostMethods = {
    hostHello: () => ({ protocol: PROTOCOL_VERSION, version: options.version, pid: process.pid, rendererDir }),
    getHostStatus: async () => ({
      pid: process.pid,
      version: options.version,
      protocol: PROTOCOL_VERSION,
      startedAt,
      dataDir,
      socketPath,
      logFile,
      clients: connections,
      webDoors: (started.doors?.urls() ?? []).map((url) => ({ url })),
      running: await listRunningWork(requireCore().api),
    }),
    stopHost: async () => {
      const stopped = await listRunningWork(requireCore().api);
      log(`asked to stop: ${stopped.agents.length} agents and ${stopped.tasks.length} tasks end now`);
      // The answer goes out first; the connections close once everything has stopped.
      setImmediate(() => void close());
      return { stopped };
    },
    openWebDoor: async (request, client) => {
      if (!started.doors) throw new Error('The host is still starting.');
      const door = await started.doors.openDoor(request, client.signal);
      log(`browser door open at ${new URL(door.url).origin}`);
      return door;
    },
  };

  const ledger = new RequestLedger();
  const connect = (activeCore: Core, push: (frame: HostPush) => void, door: Door): Connection => {
    const connection = openConnection(activeCore, hostMethods, door, push, ledger);
    connections++;
    let open = true;
    return {
      handle: (raw) => connection.handle(raw),
      close: () => {
        if (open) connections--;
        open = false;
        connection.close();
      },
    };
  };

  let resolveCore: (core: Core) => void = () => {};
  const coreReady = new Promise<Core>((resolve) => (resolveCore = resolve));
  // A window's line to a machine waits, as its other calls do, until the host can reach machines.
  let resolveMachineDoor: (door: MachineDoorHost) => void = () => {};
  const machineDoor = new Promise<MachineDoorHost>((resolve) => (resolveMachineDoor = resolve));
  let socketServer;
  try {
    socketServer = await startLocalSocketServer(
      socketPath,
      async (push) => connect(await coreReady, push, 'socket'),
      (machine, page) => void machineDoor.then((door) => openMachinePage(door, page, machine)),
      log,
    );
  } catch (error) {
    lock.release();
    throw error;
  }
  const server = socketServer;

  // The person's own ssh, as DROVER_SSH_COMMAND names it: for adding machines and bridging pages to them.
  const launchSsh = sshLauncher(sshClientFrom(process.env));
  let core: Core;
  try {
    core = createCore({ ...options, socketPath, launchSsh });
  } catch (error) {
    await server.close();
    lock.release();
    throw error;
  }
  const activeCore = core;
  started.core = core;
  resolveCore(activeCore);
  try {
    activeCore.startWork();
  } catch (error) {
    await activeCore.close();
    await server.close();
    lock.release();
    throw error;
  }

  const host = {
    dataDir,
    version: options.version,
    log,
    socketPath,
    core: activeCore,
    openConnection: (push: (frame: HostPush) => void, door: Door = 'socket') => connect(activeCore, push, door),
    openMachine: async (name: string) => {
      if (!(await activeCore.api.listMachines({})).machines.some((candidate) => candidate.name === name)) return null;
      const { machine, installed } = await activeCore.api.updateMachineHost({ name });
      if (installed) log(`installed Drover ${machine.hostVersion}'s host on ${name}`);
      return spawnSshBridge(launchSsh, machine);
    },
  };
  resolveMachineDoor(host);
  const openDoors = new WebDoors(host, dataDir, rendererDir);
  started.doors = openDoors;
  writeHostRecord(dataDir, { pid: process.pid, startTime: readProcessStartTime(process.pid), version: options.version, protocol: PROTOCOL_VERSION, startedAt, logFile });

  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let closing: Promise<void> | undefined;
  close = () => {
    // The socket is the data dir's door and the lock its guard: both stay until the core has finished writing.
    closing ??= (async () => {
      // Its clients hear it stops on purpose, as its pages do from the doors' close: nothing crashed.
      server.sayStopping();
      await openDoors.closeAll();
      await activeCore.close();
      await server.close();
      removeHostRecord(dataDir, process.pid);
      lock.release();
      resolveStopped();
    })();
    return closing;
  };
  return { ...host, stopped, close: () => close() };
}
