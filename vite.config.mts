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

// Relative asset URLs let the same build load from file:// in Electron and from http in `drover serve`.
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: './',
  plugins: [react(), contentSecurityPolicyMeta()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
    // The changes view's chunk holds its diff viewer's syntax highlighting (highlight.js with every
    // language, ~1 MB), loaded only when a Changes view first opens.
    chunkSizeWarningLimit: 1100,
  },
});
