// The window's Backend: the bound methods over the bindings Wails
// generates from app.go (./wailsBound.gen.ts, generated with them), the
// events, and sendMessage, which picks its binding by whether images come.
import { EventsOn } from "../../wailsjs/runtime/runtime";
import type { Backend } from "./backend";
import { wailsBound } from "./wailsBound.gen";

export const wailsBackend: Backend = {
  ...wailsBound,
  on: (name, cb) => EventsOn(name, cb),
  sendMessage: (id, text, attachments, images = []) =>
    images.length > 0 ? wailsBound.sendMessageWithImages(id, text, attachments, images) : wailsBound.sendMessage(id, text, attachments),
};
