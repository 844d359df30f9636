import { _cacheMap as highlightedFiles, highlighter } from '@git-diff-view/react';
import { useSyncExternalStore } from 'react';

let everyGrammar: Promise<void> | null = null;
let generation = 0;
const listeners = new Set<() => void>();

/**
 * Registers every highlight.js grammar with the diff viewer's highlighter, which starts with the
 * common ones (see vite.config.mts). Loaded once; a failed load is tried again on the next call.
 */
export function loadEveryGrammar(): Promise<void> {
  everyGrammar ??= import('./everyGrammar').then(
    ({ all }) => {
      const engine = highlighter.getHighlighterEngine();
      engine.register(Object.fromEntries(Object.entries(all).filter(([name]) => !engine.registered(name))));
      // The viewer keeps each file it highlighted, and would show one of a language it lacked as it was.
      highlightedFiles.clear();
      generation += 1;
      for (const listener of listeners) listener();
    },
    (error: unknown) => {
      everyGrammar = null;
      throw error;
    },
  );
  return everyGrammar;
}

/** Moves on once every grammar is registered: a hunk highlighted before may be coloured better now. */
export function useGrammarGeneration(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => generation,
  );
}
