// The first picture of docs/architecture.md ("Layers") must draw exactly the imports the rules of
// .dependency-cruiser.cjs allow between its boxes: an arrow for every pair no rule forbids, none for
// a pair one forbids. Run by `npm run lint`; fails naming each missing or extra arrow.
// Usage: node scripts/check-architecture-map.mjs [architecture.md] [dependency-cruiser config]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const docFile = path.resolve(process.argv[2] ?? path.join(root, 'docs', 'architecture.md'));
const configFile = path.resolve(process.argv[3] ?? path.join(root, '.dependency-cruiser.cjs'));
const rules = createRequire(import.meta.url)(configFile).forbidden;

/** The mermaid block under "## Layers": its boxes (id -> the first path in its label) and arrows. */
function readPicture(markdown) {
  const block = /^## Layers\n[\s\S]*?^```mermaid\n([\s\S]*?)^```/m.exec(markdown)?.[1];
  if (!block) throw new Error(`${docFile} has no mermaid picture under "## Layers".`);
  const boxes = new Map();
  const arrows = new Set();
  for (const line of block.split('\n').slice(1)) {
    const bare = line.replace(/(\w+)\["([^"]*)"\]/g, (_, id, label) => {
      const where = /(electron\/[\w./]*|shared\/|renderer\/)/.exec(label)?.[1];
      if (!where) throw new Error(`box ${id} names no folder or file of the code: "${label}"`);
      boxes.set(id, where.endsWith('/') ? `${where}any.ts` : where);
      return id;
    });
    const ends = bare.split('-->').map((side) => side.split('&').map((id) => id.trim()).filter(Boolean));
    for (let i = 1; i < ends.length; i++) for (const from of ends[i - 1]) for (const to of ends[i]) arrows.add(`${from} --> ${to}`);
  }
  for (const arrow of arrows) for (const id of arrow.split(' --> ')) if (!boxes.has(id)) throw new Error(`arrow ${arrow}: box ${id} has no label`);
  return { boxes, arrows };
}

const asList = (value) => (value === undefined ? [] : [value].flat());
const matchesAny = (patterns, file) => patterns.some((pattern) => new RegExp(pattern).test(file));

/** The first rule that forbids `from` importing the local module `to`, judged as dependency-cruiser would. */
function forbiddingRule(from, to) {
  return rules.find((rule) => {
    const { path: fromPath, pathNot: fromPathNot, ...fromRest } = rule.from;
    const { path: toPath, pathNot: toPathNot, dependencyTypes, dependencyTypesNot, ...toRest } = rule.to;
    if (Object.keys(fromRest).length > 0 || Object.keys(toRest).length > 0) return false; // circular, reachable: not about a pair of boxes
    const fromMatch = fromPath === undefined ? [from] : asList(fromPath).map((pattern) => new RegExp(pattern).exec(from)).find(Boolean);
    if (!fromMatch || matchesAny(asList(fromPathNot), from)) return false;
    const withGroups = (patterns) => asList(patterns).map((pattern) => pattern.replace(/\$(\d)/g, (_, n) => fromMatch[Number(n)] ?? ''));
    if (toPath !== undefined && !matchesAny(withGroups(toPath), to)) return false;
    if (matchesAny(withGroups(toPathNot), to)) return false;
    if (dependencyTypes !== undefined && !asList(dependencyTypes).includes('local')) return false;
    return !asList(dependencyTypesNot).includes('local');
  });
}

const { boxes, arrows } = readPicture(fs.readFileSync(docFile, 'utf8'));
const problems = [];
for (const [fromId, from] of boxes) {
  for (const [toId, to] of boxes) {
    if (path.dirname(from) === path.dirname(to)) continue; // a folder's own modules import each other freely
    const arrow = `${fromId} --> ${toId}`;
    const rule = forbiddingRule(from, to);
    if (rule && arrows.has(arrow)) problems.push(`extra arrow ${arrow}: ${rule.name} forbids ${from} importing ${to}`);
    if (!rule && !arrows.has(arrow)) problems.push(`missing arrow ${arrow}: no rule forbids ${from} importing ${to}`);
  }
}
if (problems.length > 0) {
  console.error(`The "Layers" picture of ${path.relative(root, docFile)} differs from ${path.relative(root, configFile)}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
