// Bundles the Node side (Electron main, preload, the drover CLI, benchmarks) with esbuild: one fast
// step that resolves shared/ TypeScript without a separate emit; tsc only type-checks.
import { build } from 'esbuild';

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
  build({ ...common, entryPoints: { run: 'bench/run.ts' }, outdir: 'dist/bench', packages: 'external' }),
]);
