import { useEffect, useMemo, useState } from 'react';
import { create } from 'zustand';

/** One action of the command palette, offered by the component that owns what it acts on. */
export interface PaletteCommand {
  /** Unique among all commands offered at once. */
  id: string;
  group: string;
  label: string;
  /** Key caps, as the `?` sheet shows them. */
  shortcut?: readonly string[];
  /** More words the palette's search matches. */
  keywords?: readonly string[];
  /**
   * A promise that rejects keeps the palette open with the reason; one that resolves to a
   * `CommandOutcome` keeps it open to say what was done.
   */
  run(): void | Promise<unknown>;
}

/** What a command whose effect shows nowhere on the page (a push) resolves to: the palette says it. */
export interface CommandOutcome {
  said: string;
}

export function saying(said: string): CommandOutcome {
  return { said };
}

export function isCommandOutcome(value: unknown): value is CommandOutcome {
  return typeof value === 'object' && value !== null && typeof (value as Partial<CommandOutcome>).said === 'string';
}

const useRegistry = create<{ sources: ReadonlyMap<number, readonly PaletteCommand[]> }>()(() => ({ sources: new Map() }));
let nextSource = 1;

function setSource(source: number, commands: readonly PaletteCommand[] | null): void {
  useRegistry.setState(({ sources }) => {
    const next = new Map(sources);
    if (commands) next.set(source, commands);
    else next.delete(source);
    return { sources: next };
  });
}

/**
 * Offers `commands` in the palette while the component is mounted. Pass a memoised list: each new
 * list replaces the one offered before (its `run` sees the component's current state).
 */
export function usePaletteCommands(commands: readonly PaletteCommand[]): void {
  const [source] = useState(() => nextSource++);
  useEffect(() => setSource(source, commands), [source, commands]);
  useEffect(() => () => setSource(source, null), [source]);
}

/** Every command offered now, in the order their components mounted. */
export function useOfferedCommands(): readonly PaletteCommand[] {
  const sources = useRegistry((state) => state.sources);
  return useMemo(() => [...sources.values()].flat(), [sources]);
}
