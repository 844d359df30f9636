#!/usr/bin/env node
/**
 * Part of `npm run lint`: every workflow in .github/workflows (or the folder given) checked against
 * GitHub's workflow schema by @action-validator/core, which runs offline (WebAssembly). Prints each
 * problem as `file: path: what` and exits 1 if there is any.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The validator nests the reasons a `oneOf` failed; the leaves say what is wrong. */
function problems(errors, file) {
  return errors.flatMap((error) => {
    const nested = (error.states ?? []).flatMap((state) => problems(state.errors ?? [], file));
    if (nested.length > 0) return nested;
    return [`${file}: ${error.path || '/'}: ${error.detail ?? error.title}`];
  });
}

const folder = path.resolve(process.argv[2] ?? path.join(ROOT, '.github', 'workflows'));
const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => /\.ya?ml$/.test(name)).sort() : [];
if (files.length === 0) {
  console.error(`No workflows in ${folder}.`);
  process.exit(1);
}
const shown = (file) => (path.relative(process.cwd(), file).startsWith('..') ? file : path.relative(process.cwd(), file));
const found = files.flatMap((name) => problems(validateWorkflow(fs.readFileSync(path.join(folder, name), 'utf8')).errors, shown(path.join(folder, name))));
// Alternatives the validator tried can repeat the same leaf.
const unique = [...new Set(found)];
if (unique.length > 0) {
  console.error(unique.join('\n'));
  process.exit(1);
}
