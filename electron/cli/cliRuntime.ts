import fs from 'node:fs';
import path from 'node:path';
import { workEnvironment } from '../host/workEnvironment';

/** What `drover serve` tells the host about the runtime the CLI itself runs on. */
export interface CliRuntime {
  /** argv that runs this CLI again (agent terminals get it as `drover`). */
  cliCommand: string[];
  /** Electron runs as Node only when told so, in every process the shim starts. */
  cliEnv?: Record<string, string>;
  /** better-sqlite3 built for Electron's ABI, when the CLI runs on Electron. */
  sqliteNativeBinding?: string;
  /** What agents and tasks start from: this process's environment without the runtime's own switches. */
  env: NodeJS.ProcessEnv;
}

/**
 * The CLI runs on Node (a checkout, `bin/drover`) or on the desktop app's Electron as Node (the
 * `drover` launchers of the AppImage and the .deb). On Electron, the Node-ABI better-sqlite3 of
 * node_modules cannot load: the packaged app's own build sits in resources/native, three folders
 * up from resources/app.asar/dist/electron/cli.js (DROVER_SQLITE_BINDING, set by `npm start`, wins).
 */
export function cliRuntime({ execPath, cliDir, versions, env }: { execPath: string; cliDir: string; versions: NodeJS.ProcessVersions; env: NodeJS.ProcessEnv }): CliRuntime {
  const cliCommand = [execPath, path.join(cliDir, 'cli.js')];
  if (versions.electron === undefined) return { cliCommand, env: workEnvironment(env) };
  const packaged = path.join(cliDir, '..', '..', '..', 'native', 'better_sqlite3.node');
  const sqliteNativeBinding = env.DROVER_SQLITE_BINDING || (fs.existsSync(packaged) ? packaged : undefined);
  return { cliCommand, cliEnv: { ELECTRON_RUN_AS_NODE: '1' }, env: workEnvironment(env), ...(sqliteNativeBinding ? { sqliteNativeBinding } : {}) };
}
