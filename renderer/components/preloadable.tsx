import { lazy, useState, type ComponentType } from 'react';

/**
 * A component whose code loads apart from the page: `preload` starts loading it ahead of need, and
 * once loaded it renders without suspending. A Suspense boundary that shows its fallback even for
 * a moment holds the content back for at least 300 ms (React's throttle on revealing suspended
 * content); before the module is in, it suspends as React.lazy does (render it inside Suspense).
 */
export function preloadable<Props extends object>(load: () => Promise<ComponentType<Props>>): { preload(): Promise<unknown>; Component: ComponentType<Props> } {
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<ComponentType<Props>> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A later render tries again (the page's server may be back).
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloaded(props: Props) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component would remount it.
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return { preload, Component: Preloaded };
}
