import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { DroverActions, DroverState, DroverStore } from './droverStore';

const StoreContext = createContext<DroverStore | null>(null);

export function StoreProvider({ store, children }: { store: DroverStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

function useDroverStoreApi(): DroverStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useDrover must be used inside <StoreProvider>');
  return store;
}

/** Selects a slice of the store; return existing references (or primitives) to avoid re-renders. */
export function useDrover<T>(selector: (state: DroverState) => T): T {
  return useStore(useDroverStoreApi(), selector);
}

export function useDroverActions(): DroverActions {
  return useDrover((state) => state.actions);
}
