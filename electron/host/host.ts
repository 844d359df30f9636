import type { ProjectSettings } from '../../shared/entities';
import type { CommandLineToolSource } from '../core/commandLineTool/commandLineTool';
import { createCore, type Core } from '../core/compose';
import type { TokenCipher } from '../core/forge/forgeTokens';
import { openConnection, type Connection } from './connection';
import type { HostPush } from './frameCodec';
import { startLocalSocketServer } from './localSocketServer';
import { socketPathFor } from './paths';
import { enforcePrivateDataDir } from './privateDataDir';

export type { Connection } from './connection';
export type { TokenCipher } from '../core/forge/forgeTokens';

export interface HostOptions {
  dataDir: string;
  version: string;
  sqliteNativeBinding?: string;
  log?: (line: string) => void;
  settingsDefaults?: Partial<ProjectSettings>;
  /** argv that runs this Drover's CLI; agent terminals get it on PATH as `drover`. */
  cliCommand?: readonly string[];
  cliEnv?: Record<string, string>;
  /** What "Install command line tool" installs (default: a launcher running `cliCommand`). */
  commandLineTool?: CommandLineToolSource;
  agentStopGraceMs?: number;
  /** The environment agents and tasks start from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** How a pasted forge token is sealed on disk (the desktop app passes Electron's safeStorage). */
  tokenCipher?: TokenCipher;
}

export interface DroverHost {
  dataDir: string;
  log(line: string): void;
  socketPath: string;
  core: Core;
  openConnection(push: (frame: HostPush) => void): Connection;
  close(): Promise<void>;
}

/**
 * The composition root every host shares: takes the data dir's instance lock (the local socket),
 * builds and reconciles the core, then serves. Connections that arrive while the core boots wait.
 */
export async function startHost(options: HostOptions): Promise<DroverHost> {
  const log = options.log ?? (() => {});
  enforcePrivateDataDir(options.dataDir, log);
  const socketPath = socketPathFor(options.dataDir);
  let resolveCore: (core: Core) => void = () => {};
  const coreReady = new Promise<Core>((resolve) => (resolveCore = resolve));
  const socketServer = await startLocalSocketServer(socketPath, async (push) => openConnection(await coreReady, push), log);

  let core: Core;
  try {
    core = createCore({
      dataDir: options.dataDir,
      version: options.version,
      socketPath,
      ...(options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {}),
      ...(options.settingsDefaults ? { settingsDefaults: options.settingsDefaults } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.cliCommand ? { cliCommand: options.cliCommand } : {}),
      ...(options.cliEnv ? { cliEnv: options.cliEnv } : {}),
      ...(options.commandLineTool ? { commandLineTool: options.commandLineTool } : {}),
      ...(options.agentStopGraceMs !== undefined ? { agentStopGraceMs: options.agentStopGraceMs } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.tokenCipher ? { tokenCipher: options.tokenCipher } : {}),
    });
  } catch (error) {
    await socketServer.close();
    throw error;
  }
  resolveCore(core);
  try {
    core.startWork();
  } catch (error) {
    await core.close();
    await socketServer.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    dataDir: options.dataDir,
    log,
    socketPath,
    core,
    openConnection: (push) => openConnection(core, push),
    close: () => {
      // The socket is the data dir's lock: it stays bound until the core has finished writing.
      closing ??= (async () => {
        await core.close();
        await socketServer.close();
      })();
      return closing;
    },
  };
}
