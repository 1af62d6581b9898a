import { createContext, useContext } from "react";
import type { AppState } from "./appState";
import type { AppController } from "./controller";
import { useStoreSelect } from "./store";

export const ControllerContext = createContext<AppController | null>(null);

export function useController(): AppController {
  const c = useContext(ControllerContext);
  if (!c) throw new Error("useController outside ControllerContext.Provider");
  return c;
}

/** Reads a slice of the app state; the component re-renders when it changes. */
export function useApp<T>(select: (s: AppState) => T): T {
  return useStoreSelect(useController().store, select);
}
