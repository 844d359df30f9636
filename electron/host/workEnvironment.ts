import { AGENT_PROOF_ENV } from '../../shared/agentEnv';

/** What the AppImage runtime and its AppRun set for the app alone. */
const APPIMAGE_VARIABLES = ['APPDIR', 'APPIMAGE', 'ARGV0', 'OWD'];
/** Lists AppRun puts folders of the mounted image in front of. */
const APPIMAGE_PATH_LISTS = ['PATH', 'LD_LIBRARY_PATH', 'XDG_DATA_DIRS', 'GSETTINGS_SCHEMA_DIR'];
/** Who an agent terminal speaks for: a host started from one must not hand that agent's identity to its work. */
const AGENT_IDENTITY_VARIABLES = ['DROVER_AGENT_ID', 'DROVER_PROJECT_ID', AGENT_PROOF_ENV];

/**
 * The environment agents and tasks start from: the host's own, without what only the host's
 * runtime needs. Electron run as Node (ELECTRON_RUN_AS_NODE, set by the `drover` launchers) would
 * make any Electron app started in an agent terminal run as Node; an AppImage points PATH,
 * LD_LIBRARY_PATH and XDG_DATA_DIRS into its mount (gone when Drover quits, and with libraries
 * meant for Drover only). A host started inside an agent terminal (`drover serve` typed there)
 * leaves that agent's identity and proof behind: each agent and task gets its own.
 */
export function workEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env };
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
