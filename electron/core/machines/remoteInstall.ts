import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { posixCommand, remoteHostDir, type Machine, type SshLauncher } from '../../../shared/machines';
import { DroverRequestError } from '../../../shared/protocol';
import { RemoteHostBundleSchema, type RemoteHostBundle } from './remoteHostBundle';
import { lastWords, runRemote } from './remoteShell';

type Destination = Pick<Machine, 'destination' | 'port'>;

/** What a remote has of what Drover's host needs there. */
export interface RemoteFacts {
  /** `version abi platform arch` of its Node, or null when there is none on a login's PATH. */
  node: { version: string; abi: string; platform: string; arch: string } | null;
  git: string | null;
  /** The build id of the Drover host installed there for this version, if any. */
  installedBuild: string | null;
}

export type LocalBundle = RemoteHostBundle & { dir: string };

/** This Drover's host for other machines, or null when it was built without one. */
export function findBundle(bundleDir: string | undefined): LocalBundle | null {
  const file = bundleDir ? path.join(bundleDir, 'bundle.json') : undefined;
  if (!bundleDir || !file || !fs.existsSync(file)) return null;
  return { ...RemoteHostBundleSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))), dir: bundleDir };
}

export function readBundle(bundleDir: string | undefined): LocalBundle {
  const bundle = findBundle(bundleDir);
  if (!bundle) throw new DroverRequestError('invalid-state', 'This Drover has no host to install on other machines (dist/remote-host is missing): build it with `npm run build`.');
  return bundle;
}

const PROBE = (version: string) =>
  [
    `printf 'node=%s\\n' "$(node -p 'process.versions.node+" "+process.versions.modules+" "+process.platform+" "+process.arch' 2>/dev/null)"`,
    `printf 'git=%s\\n' "$(git --version 2>/dev/null)"`,
    `printf 'installed=%s\\n' "$(cat "$HOME/${remoteHostDir(version)}/build-id" 2>/dev/null)"`,
  ].join('; ');

export async function probeRemote(launch: SshLauncher, machine: Destination, version: string): Promise<RemoteFacts> {
  const { stdout } = await runRemote(launch, machine, posixCommand(PROBE(version)));
  const field = (name: string) => stdout.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1]?.trim() || null;
  const [nodeVersion, abi, platform, arch] = (field('node') ?? '').split(' ');
  return {
    node: nodeVersion && abi && platform && arch ? { version: nodeVersion, abi, platform, arch } : null,
    git: field('git'),
    installedBuild: field('installed'),
  };
}

/** Why the remote cannot run this Drover's host, with what to do about it; null when it can. */
export function missingOnRemote(destination: string, facts: RemoteFacts, bundle: RemoteHostBundle): string | null {
  const needs = `Node.js ${bundle.nodeVersion.split('.')[0]} (ABI ${bundle.nodeAbi}) on ${bundle.platform}-${bundle.arch}`;
  if (!facts.node) return `${destination} has no \`node\` on the PATH of an ssh login. Drover's host needs ${needs} and git there: install them (e.g. \`sudo apt install nodejs git\`, or put your Node on the PATH that ~/.profile gives non-interactive logins) and try again.`;
  if (facts.node.platform !== bundle.platform || facts.node.arch !== bundle.arch || facts.node.abi !== bundle.nodeAbi) {
    return `${destination} runs Node.js ${facts.node.version} (ABI ${facts.node.abi}) on ${facts.node.platform}-${facts.node.arch}; this Drover's host needs ${needs} there, for its terminal and database modules. Install that Node there and try again.`;
  }
  if (!facts.git) return `${destination} has no \`git\` on the PATH of an ssh login; Drover's worktrees need it there: install it (e.g. \`sudo apt install git\`) and try again.`;
  return null;
}

/** How the install script says that the copied host does not run there (set -e's own failures exit 1). */
const DOES_NOT_RUN_EXIT = 3;

/**
 * Unpacks into a temporary folder beside the target, checks that the host runs from there, and
 * only then renames it into place: the host folder there is always whole and working, whatever
 * cut the connection or failed. One line (`;`), so a csh login shell takes it too.
 */
function installScript(version: string): string {
  const target = `"$HOME/${remoteHostDir(version)}"`;
  return [
    'set -e',
    'umask 077',
    'base="$HOME/.local/share/drover"',
    'mkdir -p "$base"',
    `tmp=$(mktemp -d "$base/.host-${version}.XXXXXX")`,
    `trap 'rm -rf "$tmp"' EXIT`,
    'tar -xzf - -C "$tmp"',
    'test -f "$tmp/build-id"',
    'said=$(node "$tmp/cli.js" --version 2>&1) || true',
    `if [ "$said" != "${version}" ]; then printf '%s\\n' "$said" >&2; exit ${DOES_NOT_RUN_EXIT}; fi`,
    `rm -rf ${target}.old`,
    `if [ -e ${target} ]; then mv ${target} ${target}.old; fi`,
    `mv "$tmp" ${target}`,
    'trap - EXIT',
    `rm -rf ${target}.old`,
  ].join('; ');
}

/** Copies the host bundle to the remote over the same ssh; it takes its place there only once it runs. */
export async function installRemoteHost(launch: SshLauncher, machine: Destination, bundle: LocalBundle): Promise<void> {
  const tar = spawn('tar', ['-czf', '-', '-C', bundle.dir, '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let tarError = '';
  tar.stderr.on('data', (chunk: Buffer) => (tarError += chunk.toString('utf8')));
  const tarEnded = new Promise<number>((resolve) => {
    tar.once('error', () => resolve(-1));
    tar.once('close', (code) => resolve(code ?? 1));
  });
  // A remote that stopped reading (its disk full, ssh gone) would leave tar blocked on the pipe for ever.
  const stopTar = (): boolean => {
    const running = tar.pid !== undefined && tar.exitCode === null && tar.signalCode === null;
    if (running) tar.kill();
    return running;
  };
  let unpacked;
  try {
    unpacked = await runRemote(launch, machine, posixCommand(installScript(bundle.version)), tar.stdout);
  } catch (error) {
    stopTar();
    throw error;
  }
  const stoppedTar = stopTar();
  if ((await tarEnded) !== 0 && !stoppedTar) throw new DroverRequestError('internal', `Could not pack Drover's host for ${machine.destination}: ${tarError.trim() || 'tar failed'}`);
  if (unpacked.code === DOES_NOT_RUN_EXIT) throw new DroverRequestError('invalid-state', `Drover's host does not run on ${machine.destination}, so it was not installed: ${lastWords(unpacked.stderr)}`);
  if (unpacked.code !== 0) throw new DroverRequestError('invalid-state', `Could not install Drover's host on ${machine.destination}: ${lastWords(unpacked.stderr)}. Nothing was left half-installed.`);
}
