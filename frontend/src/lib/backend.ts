// The one door from the UI to Go. Components receive a Backend through
// BackendContext, so unit tests hand them a fake (src/test/fakeBackend.ts)
// and the window hands them wailsBackend (./wailsBackend.ts), a typed
// adapter over the generated bindings in frontend/wailsjs.
//
// The calls are generated from the methods App binds (./backend.gen.ts,
// `make bindings`): a new call is one Go method. What is written here is
// what Go does not declare: the events, and sendMessage, which picks one
// of two bound methods.
import { createContext, useContext } from "react";
import type { BoundBackend } from "./backend.gen";
import type { EventMap, EventName, ImageInput } from "./wire.gen";

export type { VersionInfo } from "./backend.gen";
export type { ExportFormat } from "./wire.gen";

export interface Backend extends Omit<BoundBackend, "sendMessage" | "sendMessageWithImages"> {
  on<K extends EventName>(name: K, cb: (payload: EventMap[K]) => void): () => void;
  /** Starts a turn; images are pasted or dropped screenshots (sent with SendMessageWithImages). */
  sendMessage(sessionId: number, text: string, attachments: string[], images?: ImageInput[]): Promise<void>;
}

export const BackendContext = createContext<Backend | null>(null);

export function useBackend(): Backend {
  const b = useContext(BackendContext);
  if (!b) throw new Error("useBackend outside BackendContext.Provider");
  return b;
}
