/** Architecture rules (see docs/architecture.md); `npm run lint` fails when one is broken. */
module.exports = {
  forbidden: [
    {
      name: 'core-is-plain-node',
      comment: 'The core knows nothing of Electron, React, or which host/transport serves it.',
      severity: 'error',
      from: { path: '^electron/core/' },
      to: { path: ['^electron/(host|cli)/', '^electron/(main|preload)\\.ts$', '^renderer/', '(^|/)node_modules/(electron|react|react-dom|ws|zustand)/', '^(electron|react|react-dom|ws)$'] },
    },
    {
      name: 'renderer-only-renderer-and-shared',
      comment: 'The renderer talks to main only through the contract in shared/.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(electron|bench|e2e|scripts)/' },
    },
    {
      name: 'renderer-no-node-builtins',
      comment: 'The renderer runs in a sandboxed page.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'only-main-and-preload-import-electron',
      severity: 'error',
      from: { pathNot: '^electron/(main|preload)\\.ts$' },
      to: { path: ['(^|/)node_modules/electron/', '^electron$'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-is-the-contract-only',
      comment: 'shared/ is imported by both sides, so it imports nothing of theirs.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer)/' },
    },
    {
      name: 'host-not-from-core-or-cli-internals',
      comment: 'Arrows point one way: host -> core, main.ts -> host, cli -> host.',
      severity: 'error',
      from: { path: '^electron/host/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^electron/cli/', '^electron/(main|preload)\\.ts$'] },
    },
    {
      name: 'storage-knows-no-domain',
      comment: 'storage/ holds every table and query; the domains build on it, never the other way round.',
      severity: 'error',
      from: { path: '^electron/core/storage/' },
      to: { path: '^electron/core/', pathNot: '^electron/core/(storage/|errors\\.ts$)' },
    },
    {
      name: 'sql-only-in-storage',
      comment: 'Only storage/ (and the composition root that opens the app database) touches SQLite.',
      severity: 'error',
      from: { path: '^electron/', pathNot: ['^electron/core/storage/', '^electron/core/compose\\.ts$', '\\.test\\.ts$'] },
      to: { path: ['(^|/)node_modules/better-sqlite3/', '^electron/core/storage/sqlite\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
