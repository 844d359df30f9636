import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from '../bridge';
import type { DroverActions, DroverState, DroverStore } from './droverStore';

const StoreContext = createContext<DroverStore | null>(null);
const BridgeContext = createContext<Bridge | null>(null);

export function StoreProvider({ store, bridge, children }: { store: DroverStore; bridge: Bridge; children: ReactNode }) {
  return (
    <BridgeContext.Provider value={bridge}>
      <StoreContext.Provider value={store}>{children}</StoreContext.Provider>
    </BridgeContext.Provider>
  );
}

/** For streams that live outside the store (a task's output while its viewer is open). */
export function useBridge(): Bridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge must be used inside <StoreProvider>');
  return bridge;
}

/** The store itself, for listeners that read the state at the moment something happens. */
export function useDroverStoreApi(): DroverStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useDrover must be used inside <StoreProvider>');
  return store;
}

/**
 * Selects a part of the store; return existing references (or primitives) to avoid re-renders.
 * Components read through the named hooks of hooks.ts, which are built on this.
 */
export function useDrover<T>(selector: (state: DroverState) => T): T {
  return useStore(useDroverStoreApi(), selector);
}

export function useDroverActions(): DroverActions {
  return useDrover((state) => state.actions);
}
