import path from 'node:path';
import { AGENT_PROOF_ENV } from '../common/agentEnv';

/** What the AppImage runtime and its AppRun set for the app alone. */
const APPIMAGE_VARIABLES = ['APPDIR', 'APPIMAGE', 'ARGV0', 'OWD'];
/** Lists AppRun puts folders of the mounted image in front of. */
const APPIMAGE_PATH_LISTS = ['PATH', 'LD_LIBRARY_PATH', 'XDG_DATA_DIRS', 'GSETTINGS_SCHEMA_DIR'];
/** Who an agent terminal speaks for: a host started from one must not hand that agent's identity to its work. */
const AGENT_IDENTITY_VARIABLES = ['DROVER_AGENT_ID', 'DROVER_PROJECT_ID', AGENT_PROOF_ENV];

/** Where npm run-script keeps the node-gyp shim it puts on PATH for scripts. */
const NPM_NODE_GYP_BIN = /\/@npmcli\/run-script\/lib\/node-gyp-bin$/;

/**
 * The environment without what `npm run` added for its script (`npm run serve`, `npm start`):
 * `npm_*`, INIT_CWD and NODE, and in front of PATH the package's `node_modules/.bin` (and each
 * parent folder's) and npm's node-gyp shim. An agent's `tsc` or `vite` is then the person's, not
 * Drover's own.
 */
function withoutNpmRun(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.npm_lifecycle_event === undefined && env.npm_execpath === undefined) return { ...env };
  const packageDir = env.npm_package_json ? path.dirname(env.npm_package_json) : (env.npm_config_local_prefix ?? env.INIT_CWD);
  const npmBins = new Set<string>();
  for (let dir = packageDir; dir; dir = dir === path.dirname(dir) ? undefined : path.dirname(dir)) npmBins.add(path.join(dir, 'node_modules', '.bin'));
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith('npm_') && key !== 'INIT_CWD' && !(key === 'NODE' && value === env.npm_node_execpath)) clean[key] = value;
  }
  const entries = env.PATH?.split(':') ?? [];
  let first = 0;
  while (first < entries.length && (npmBins.has(entries[first] as string) || NPM_NODE_GYP_BIN.test(entries[first] as string))) first++;
  if (first > 0) clean.PATH = entries.slice(first).join(':');
  return clean;
}

/**
 * The environment agents and tasks start from: the host's own, without what only the host's
 * runtime needs. Electron run as Node (ELECTRON_RUN_AS_NODE, set by the `drover` launchers) would
 * make any Electron app started in an agent terminal run as Node; an AppImage points PATH,
 * LD_LIBRARY_PATH and XDG_DATA_DIRS into its mount (gone when Drover quits, and with libraries
 * meant for Drover only). A host started inside an agent terminal (`drover serve` typed there)
 * leaves that agent's identity and proof behind: each agent and task gets its own.
 */
export function workEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = withoutNpmRun(env);
  delete clean.ELECTRON_RUN_AS_NODE;
  for (const key of AGENT_IDENTITY_VARIABLES) delete clean[key];
  const appDir = env.APPIMAGE ? env.APPDIR : undefined;
  if (!appDir) return clean;
  for (const key of APPIMAGE_VARIABLES) delete clean[key];
  const inImage = (entry: string) => entry === appDir || entry.startsWith(`${appDir}/`);
  for (const key of APPIMAGE_PATH_LISTS) {
    const entries = clean[key]?.split(':');
    if (!entries?.some(inImage)) continue;
    const kept = entries.filter((entry) => !inImage(entry));
    if (kept.some((entry) => entry !== '')) clean[key] = kept.join(':');
    else delete clean[key];
  }
  return clean;
}
