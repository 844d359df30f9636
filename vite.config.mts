import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY_META } from './shared/contentSecurityPolicy';

/** Electron loads the page from file://, which gets no headers, so the page carries its policies itself. */
function contentSecurityPolicyMeta(): Plugin {
  return {
    name: 'drover-csp-meta',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY_META }, injectTo: 'head-prepend' },
      { tag: 'meta', attrs: { name: 'referrer', content: 'no-referrer' }, injectTo: 'head-prepend' },
    ],
  };
}

/**
 * The diff viewer's highlighter (@git-diff-view/lowlight) registers every highlight.js grammar as it
 * loads: about 1 MB that the Changes view's first paint waited for. Its `lowlight` is a module of
 * lowlight's own parts with the common grammars (about 150 kB) as `all`, past lowlight's entry file
 * (which would bring every grammar along); the view registers the rest once it has painted
 * (renderer/worktrees/syntaxGrammars.ts).
 */
function diffViewerCommonGrammars(): Plugin {
  const id = '\0drover-diff-viewer-lowlight';
  const lowlightLib = path.join(path.dirname(createRequire(import.meta.url).resolve('lowlight')), 'lib');
  return {
    name: 'drover-diff-viewer-common-grammars',
    enforce: 'pre',
    resolveId: (source, importer) => (source === 'lowlight' && importer?.includes('/@git-diff-view/lowlight/') ? id : null),
    load: (loading) =>
      loading === id
        ? `export { createLowlight } from ${JSON.stringify(path.join(lowlightLib, 'index.js'))};\nexport { grammars as all } from ${JSON.stringify(path.join(lowlightLib, 'common.js'))};\n`
        : null,
  };
}

// Relative asset URLs let the same build load from file:// in Electron and from http in `drover serve`.
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: './',
  plugins: [react(), contentSecurityPolicyMeta(), diffViewerCommonGrammars()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
    // Every highlight.js grammar beyond the common ones (~750 kB) is one chunk, loaded once a
    // Changes view has painted.
    chunkSizeWarningLimit: 800,
  },
});
