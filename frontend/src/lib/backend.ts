// The one door from the UI to Go. Components receive a Backend through
// BackendContext, so unit tests can hand them a fake.
import { createContext, useContext } from "react";
import * as App from "../../wailsjs/go/main/App";
import type { version } from "../../wailsjs/go/models";
import { EventsOn } from "../../wailsjs/runtime/runtime";
import type { AppReadyPayload, EventMap, EventName } from "./events";

export type VersionInfo = version.Info;

export interface Backend {
  version(): Promise<VersionInfo>;
  frontendReady(): Promise<AppReadyPayload>;
  on<K extends EventName>(name: K, cb: (payload: EventMap[K]) => void): () => void;
}

export const wailsBackend: Backend = {
  version: () => App.Version(),
  frontendReady: () => App.FrontendReady(),
  on: (name, cb) => EventsOn(name, cb),
};

export const BackendContext = createContext<Backend>(wailsBackend);

export function useBackend(): Backend {
  return useContext(BackendContext);
}
