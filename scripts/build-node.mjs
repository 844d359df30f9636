// Bundles the Node side (Electron main, preload, the drover CLI, benchmarks) with esbuild: one fast
// step that resolves shared/ TypeScript without a separate emit; tsc only type-checks.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const REMOTE_HOST = 'dist/remote-host';
/** What of each native module (and what it loads them with) runs on a remote. */
const REMOTE_NATIVES = {
  'node-pty': ['package.json', 'lib', 'build/Release/pty.node'],
  'better-sqlite3': ['package.json', 'lib', 'build/Release/better_sqlite3.node'],
};
const NATIVE_LOADERS = { bindings: ['package.json', 'bindings.js'], 'file-uri-to-path': ['package.json', 'index.js'] };

/** Copies the natives beside the remote bundle and names the build (the remote compares it before installing again). */
function stageRemoteNatives() {
  for (const [name, parts] of Object.entries({ ...REMOTE_NATIVES, ...NATIVE_LOADERS })) {
    const target = path.join(REMOTE_HOST, 'node_modules', name);
    fs.rmSync(target, { recursive: true, force: true });
    for (const part of parts) fs.cpSync(path.join('node_modules', name, part), path.join(target, part), { recursive: true });
  }
  const hash = createHash('sha256').update(fs.readFileSync(path.join(REMOTE_HOST, 'cli.js')));
  for (const [name, parts] of Object.entries(REMOTE_NATIVES)) hash.update(fs.readFileSync(path.join(REMOTE_HOST, 'node_modules', name, parts.at(-1))));
  const buildId = hash.digest('hex').slice(0, 16);
  const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  fs.writeFileSync(path.join(REMOTE_HOST, 'build-id'), `${buildId}\n`);
  fs.writeFileSync(
    path.join(REMOTE_HOST, 'bundle.json'),
    `${JSON.stringify({ version, buildId, nodeAbi: process.versions.modules, nodeVersion: process.versions.node, platform: process.platform, arch: process.arch }, null, 2)}\n`,
  );
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: {
      main: 'electron/main.ts',
      cli: 'electron/cli/main.ts',
    },
    outdir: 'dist/electron',
    packages: 'external',
  }),
  // A sandboxed preload can only require 'electron', so everything else is bundled in.
  build({ ...common, entryPoints: { preload: 'electron/preload.ts' }, outdir: 'dist/electron', external: ['electron'] }),
  build({ ...common, entryPoints: { run: 'bench/run.ts', bareForwarder: 'bench/bareForwarder.ts' }, outdir: 'dist/bench', packages: 'external' }),
  // The host as installed on other machines: one file but for the two native modules.
  build({ ...common, sourcemap: false, entryPoints: { cli: 'electron/cli/main.ts' }, outdir: REMOTE_HOST, external: Object.keys(REMOTE_NATIVES) }),
]);
stageRemoteNatives();

