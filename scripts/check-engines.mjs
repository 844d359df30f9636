// The Node version package.json states (engines.node) must be one every installed package accepts:
// `npm ci` on it prints no EBADENGINE warning. Run by `npm run lint`; fails naming the packages.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const stated = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines?.node;
const lowest = stated && semver.minVersion(stated);
if (!lowest) {
  console.error('package.json states no Node version (engines.node).');
  process.exit(1);
}
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const refusing = Object.entries(lock.packages)
  .filter(([name, entry]) => name !== '' && !entry.optional && entry.engines?.node && !semver.satisfies(lowest, entry.engines.node))
  .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')} wants Node ${entry.engines.node}`);
if (refusing.length > 0) {
  console.error(`engines.node says ${stated}, but on Node ${lowest}:\n  ${refusing.join('\n  ')}`);
  process.exit(1);
}
