/**
 * Architecture rules (see docs/architecture.md); `npm run lint` fails when one is broken, and
 * scripts/check-architecture-map.mjs fails when the picture there draws other arrows than these allow.
 */

/** The CLI's modules that start or run a host, and so may import host/ and the core. */
const HOST_STARTING_COMMANDS = ['hostCommands', 'serve', 'cliRuntime'];

module.exports = {
  forbidden: [
    {
      name: 'core-is-plain-node',
      comment: 'The core knows nothing of Electron, React, the wire, or which host/transport serves it.',
      severity: 'error',
      from: { path: '^electron/core/' },
      to: { path: ['^electron/(host|cli|desktop|wire)/', '^electron/(main|preload)\\.ts$', '^renderer/', '(^|/)node_modules/(electron|react|react-dom|ws|zustand)/', '^(electron|react|react-dom|ws)$'] },
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
      comment: 'The renderer runs in a sandboxed page (its tests run under Node).',
      severity: 'error',
      from: { path: '^renderer/', pathNot: '\\.test\\.tsx?$' },
      to: { dependencyTypes: ['core'] },
    },
    ...rendererLayerRules(),
    {
      name: 'only-main-preload-and-desktop-native-import-electron',
      comment: 'The desktop runtime stays in main.ts, preload.ts and the small adapters of desktop/native/ (electron-updater loads electron too).',
      severity: 'error',
      from: { pathNot: ['^electron/(main|preload)\\.ts$', '^electron/desktop/native/'] },
      to: {
        path: ['(^|/)node_modules/electron/', '^electron$', '(^|/)node_modules/electron-updater/', '^electron-updater$'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'desktop-native-only-from-main',
      comment: 'The Electron adapters are wired by main.ts alone; everything else stays runnable under plain Node.',
      severity: 'error',
      from: { pathNot: ['^electron/main\\.ts$', '^electron/desktop/native/'] },
      to: { path: '^electron/desktop/native/' },
    },
    {
      name: 'shared-is-the-contract-only',
      comment: 'shared/ is imported by both sides, so it imports nothing of theirs.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer)/' },
    },
    {
      name: 'host-imports-core-wire-and-shared',
      comment: 'The host serves the core through its doors; the CLI and the desktop start it, never the other way round.',
      severity: 'error',
      from: { path: '^electron/host/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^electron/(cli|desktop)/', '^electron/(main|preload)\\.ts$', '^renderer/'] },
    },
    {
      name: 'wire-imports-only-shared-and-node',
      comment: 'wire/ is the local socket as both ends speak it (framing, records, frame codec, socket path): it builds on shared/ and Node alone.',
      severity: 'error',
      from: { path: '^electron/wire/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: ['^shared/', '^electron/wire/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'common-imports-only-shared-and-node',
      comment: "common/ holds what the CLI's clients and the core both use (shell quoting, an agent's env, a task's exit in words): it builds on shared/ and Node alone, so either may import it.",
      severity: 'error',
      from: { path: '^electron/common/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: ['^shared/', '^electron/common/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'cli-clients-reach-the-host-over-the-wire',
      comment: 'A CLI command talks to the host over the socket; only the commands that start or run a host (drover host run, serve) import host/ and the core.',
      severity: 'error',
      from: { path: '^electron/cli/', pathNot: ['\\.test\\.ts$', `^electron/cli/(${HOST_STARTING_COMMANDS.join('|')})\\.ts$`] },
      to: { path: '^electron/(host|core)/' },
    },
    {
      name: 'cli-knows-no-desktop',
      comment: 'The CLI runs under plain Node without a window: the desktop uses the CLI, not the reverse.',
      severity: 'error',
      from: { path: '^electron/cli/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^electron/desktop/', '^electron/(main|preload)\\.ts$', '^renderer/'] },
    },
    {
      name: 'desktop-not-from-main-or-renderer',
      comment: 'main.ts wires desktop/; desktop/ starts and reaches the host as the CLI does, and knows no page.',
      severity: 'error',
      from: { path: '^electron/desktop/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^electron/(main|preload)\\.ts$', '^renderer/'] },
    },
    {
      name: 'main-wires-the-desktop',
      comment: 'main.ts and preload.ts are the Electron entry: they reach the core through desktop/, the wire and a host, never directly.',
      severity: 'error',
      from: { path: '^electron/(main|preload)\\.ts$' },
      to: { path: ['^electron/(core|cli)/', '^renderer/'] },
    },
    {
      name: 'storage-knows-no-domain',
      comment: 'storage/ holds every table and query; the domains build on it, never the other way round.',
      severity: 'error',
      from: { path: '^electron/core/storage/' },
      to: { path: '^electron/core/', pathNot: '^electron/core/(storage/|errors\\.ts$)' },
    },
    {
      name: 'git-knows-no-domain',
      comment: 'core/git/ runs git and reads its answers for every domain that needs them (worktrees, turns, the forge); it knows none of them.',
      severity: 'error',
      from: { path: '^electron/core/git/' },
      to: { path: '^electron/core/', pathNot: '^electron/core/(git/|errors\\.ts$)' },
    },
    {
      name: 'sql-only-in-storage',
      comment: 'Only storage/ (and the composition root that opens the app database) touches SQLite.',
      severity: 'error',
      from: { path: '^electron/', pathNot: ['^electron/core/storage/', '^electron/core/compose\\.ts$', '\\.test\\.ts$'] },
      to: { path: ['(^|/)node_modules/better-sqlite3/', '^electron/core/storage/sqlite\\.ts$'] },
    },
    ...coreDomainRules(),
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
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

/**
 * The renderer's layers, top to bottom. A module imports its own layer and the layers below it,
 * never one above: pages compose features, features are built from the shared pieces, and the
 * shared pieces know no feature.
 */
function rendererLayerRules() {
  const layers = [
    ['entry', '^renderer/main\\.tsx$'], // creates the bridge and the store, renders <App>
    ['pages', '^renderer/(App\\.tsx$|views/)'], // App and its pages
    ['agents', '^renderer/agents/'], // the agents workspace: embeds each agent's terminal, opens its inbox
    ['features', '^renderer/(inbox|workState|attention|palette|worktrees|forge|automations)/'],
    ['terminal', '^renderer/terminal/'], // xterm: agent terminals and the read-only output view
    ['accounts', '^renderer/accounts/'], // what a paused account shows: the list, the note in a pane
    ['components', '^renderer/components/'], // shared UI pieces
    ['store', '^renderer/store/'], // client state: slices, selector hooks, StoreContext
    ['base', '^renderer/((transport|format|keyboard)/|(bridge|routing|zodConfig)\\.ts$)'],
  ];
  const upward = layers.slice(1).map(([name, path], index) => ({
    name: `renderer-${name}-imports-no-layer-above`,
    comment: `renderer layers, top to bottom: ${layers.map(([layer]) => layer).join(' > ')}.`,
    severity: 'error',
    from: { path },
    to: { path: layers.slice(0, index + 1).map(([, above]) => above) },
  }));
  // What a feature offers the features above it (agents opens an inbox and shows terminals, the
  // work state shows task output); everything else in a feature's folder is its own.
  const featureEntryPoints = [
    '^renderer/inbox/InboxDialog\\.tsx$',
    '^renderer/terminal/(AgentTerminal|TerminalView)\\.tsx$',
    '^renderer/worktrees/(BranchChip|ChangesDialog|KeptBranchesDialog|OverlapChips|ProjectWorktrees|RemoveAgentDialog|WorkspaceFields)\\.tsx$',
    '^renderer/forge/(PullRequestChip|ProjectGitHub)\\.tsx$',
  ];
  return [
    ...upward,
    {
      name: 'renderer-folder-has-a-layer',
      comment: 'Every module of the renderer takes its place in the layers of rendererLayerRules() in .dependency-cruiser.cjs (renderer/testing/ is for tests).',
      severity: 'error',
      from: { path: '^renderer/', pathNot: [...layers.map(([, layer]) => layer), '\\.test\\.tsx?$', '^renderer/testing/'] },
      to: { path: '^renderer/' },
    },
    {
      name: 'renderer-features-share-entry-points-only',
      comment: 'A feature uses another only through its entry points; shared pieces live in components/, format/, keyboard/ or store/.',
      severity: 'error',
      from: { path: '^renderer/(agents|inbox|workState|worktrees|terminal|forge)/' },
      to: { path: '^renderer/(agents|inbox|workState|worktrees|terminal|forge)/', pathNot: ['^renderer/$1/', ...featureEntryPoints] },
    },
    {
      name: 'renderer-features-independent',
      comment: 'inbox/, workState/, attention/, palette/, worktrees/, forge/ and automations/ use no piece of each other; what they share lives in components/, format/, keyboard/ or store/.',
      severity: 'error',
      from: { path: '^renderer/(inbox|workState|attention|palette|worktrees|forge|automations)/' },
      to: { path: '^renderer/(inbox|workState|attention|palette|worktrees|forge|automations)/', pathNot: '^renderer/$1/' },
    },
    {
      name: 'renderer-base-modules-stand-alone',
      comment: 'format/, keyboard/ and transport/ import nothing else of the renderer (only shared/).',
      severity: 'error',
      from: { path: '^renderer/(format|keyboard|transport)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^renderer/', pathNot: '^renderer/$1/' },
    },
    {
      name: 'renderer-testing-only-in-tests',
      comment: 'renderer/testing/ holds fakes and fixtures for tests; the app never imports them.',
      severity: 'error',
      from: { path: '^renderer/', pathNot: ['\\.test\\.tsx?$', '^renderer/testing/'] },
      to: { path: '^renderer/testing/' },
    },
  ];
}

/**
 * The order among the core's domains (its folders, and its files at the top), bottom to top. A
 * domain imports the domains of the layers below its own, never one of its own layer or above:
 * so no two domains import each other, even through others. A new folder takes its place here.
 * compose.ts, which builds them all, is the top.
 */
function coreDomainRules() {
  const layers = [
    ['errors', 'ids', 'api', 'paging', 'events', 'process', 'patterns', 'time'], // know no domain
    ['storage', 'git'], // the databases, the git runner
    ['projects', 'profiles', 'appSettings', 'machines', 'workspaces'], // registries and settings; where an agent runs
    ['locate', 'attention', 'commandLineTool'],
    ['inbox', 'sessions', 'accounts'],
    ['tasks', 'comments', 'callers'],
    ['worktrees', 'wake'],
    ['agents', 'turns', 'mergeQueue'],
    ['forge', 'editor', 'overlaps', 'automations', 'boot'],
    ['compose'],
  ];
  const inCore = (names) => `^electron/core/(${names.join('|')})(/|\\.ts$)`;
  const order = layers.map((layer) => layer.join(', ')).join(' < ');
  return [
    ...layers.slice(0, -1).map((layer, index) => ({
      name: 'core-domain-order',
      comment: `A core domain imports only the layers below its own: ${order}.`,
      severity: 'error',
      from: { path: inCore(layer), pathNot: '\\.test\\.ts$' },
      to: { path: [inCore(layers.slice(index + 1).flat()), inCore(layer)], pathNot: '^electron/core/$1(/|\\.ts$)' },
    })),
    {
      name: 'core-domain-has-a-place',
      comment: 'Every folder of the core takes its place in the order of coreDomainRules() in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^electron/core/[^/]+/', pathNot: [inCore(layers.flat()), '\\.test\\.ts$'] },
      to: { path: '^electron/core/' },
    },
  ];
}
