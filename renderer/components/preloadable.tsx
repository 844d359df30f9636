import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code loads apart from the page: `preload` starts loading it ahead of need, and
 * it renders as soon as its code is in, drawing `placeholder` until then. No Suspense: a boundary
 * that shows its fallback even for a moment holds the content back for at least 300 ms (React's
 * throttle on revealing suspended content). A failed load is thrown to the LoadFailureBoundary
 * around it, and loads anew when that tries again (React.lazy would keep the failure for good).
 */
export function preloadable<Module, Props extends object>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType<Props>,
  placeholder: ReactNode = null,
): { preload(): Promise<ComponentType<Props>>; Component: ComponentType<Props> } {
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<ComponentType<Props>> | null = null;
  let failedAddress: string | null = null;
  let attempts = 0;
  // Chromium keeps a dynamic import's failure for its address as long as the page lives, so a load
  // after a failure asks for the same file at an address of its own.
  const loadAnew = () => (failedAddress ? (import(/* @vite-ignore */ `${failedAddress}?attempt=${++attempts}`) as Promise<Module>) : load());
  const preload = () =>
    (loading ??= loadAnew().then(
      (module) => (loaded = pick(module)),
      (error: unknown) => {
        // A later render tries again (the page's server may be back).
        loading = null;
        failedAddress = addressOfFailedImport(error) ?? failedAddress;
        throw error;
      },
    ));
  function Preloaded(props: Props) {
    const [state, setState] = useState<{ Component: ComponentType<Props> | null; failure?: unknown }>(() => ({ Component: loaded }));
    const ready = state.Component !== null;
    useEffect(() => {
      if (ready) return;
      let mounted = true;
      preload().then(
        (Component) => mounted && setState({ Component }),
        (failure: unknown) => mounted && setState({ Component: null, failure }),
      );
      return () => {
        mounted = false;
      };
    }, [ready]);
    if (state.failure !== undefined) throw state.failure;
    const { Component } = state;
    return Component ? <Component {...props} /> : placeholder;
  }
  return { preload, Component: Preloaded };
}

/** The file a failed dynamic import names: Chromium and Firefox end its message with it. */
function addressOfFailedImport(error: unknown): string | null {
  const named = error instanceof Error ? /imported module: (\S+)$/.exec(error.message) : null;
  return named?.[1] ?? null;
}
