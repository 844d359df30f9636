// Installs the real agent CLIs for the real-CLI suite into a cache folder outside node_modules. They
// are test tools, not Drover's dependencies. Two sets: the pinned one (test-support/realCli/
// agentClis.json, what `npm test` runs) and, with `--latest` or DROVER_AGENT_CLIS=latest, the
// newest version of each on npm. Each set has its own folder, named by its versions, in the same
// cache. Prints that folder (its node_modules/.bin holds the CLIs). Needs only the npm registry.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'test-support', 'realCli', 'agentClis.json'), 'utf8'));
const latest = process.argv.includes('--latest') || process.env.DROVER_AGENT_CLIS === 'latest';

/** The newest version npm serves of a package (`npm view <name> version`). */
function newestOnNpm(name) {
  return execFileSync('npm', ['view', name, 'version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

const versions = Object.fromEntries(Object.entries(manifest.packages).map(([name, pinned]) => [name, latest ? newestOnNpm(name) : pinned]));
const specs = Object.entries(versions).map(([name, version]) => `${name}@${version}`);
const cacheRoot = process.env.DROVER_AGENT_CLI_CACHE || path.join(os.homedir(), '.cache', 'drover-agent-clis');
const dir = path.join(cacheRoot, specs.map((spec) => spec.replace(/^@[^/]+\//, '')).join('+'));
const binDir = path.join(dir, 'node_modules', '.bin');

function installed() {
  return Object.entries(manifest.bins).every(([bin, name]) => {
    const pkg = path.join(dir, 'node_modules', ...name.split('/'), 'package.json');
    return fs.existsSync(path.join(binDir, bin)) && fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).version === versions[name];
  });
}

/** npm install, run without blocking: the lock's freshness is renewed by a timer meanwhile. */
function npmInstall() {
  return new Promise((resolve, reject) => {
    const npm = spawn('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], { cwd: dir, stdio: ['ignore', 2, 'inherit'] });
    npm.on('error', reject);
    npm.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`npm install ended with ${signal ?? `exit code ${code}`}`))));
  });
}

if (!installed()) {
  fs.mkdirSync(dir, { recursive: true });
  // Test workers that start together on a fresh cache: one installs, the others wait and find it done.
  const release = await lockfile.lock(dir, { lockfilePath: `${dir}.lock`, stale: 30_000, retries: { retries: 1_000, minTimeout: 1_000, maxTimeout: 1_000 } });
  try {
    if (!installed()) {
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'drover-agent-clis', private: true }, null, 2));
      process.stderr.write(`installing ${specs.join(', ')} into ${dir}\n`);
      await npmInstall();
    }
  } finally {
    await release();
  }
  if (!installed()) {
    process.stderr.write(`the agent CLIs did not install into ${dir}\n`);
    process.exit(1);
  }
}
process.stdout.write(`${dir}\n`);
