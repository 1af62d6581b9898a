// Types of the window alone. Everything that crosses the bridge (payloads,
// bound methods' values, enums, event names) is generated from Go into
// ./wire.gen.ts by `make bindings`; import it from there.
import type { SlashCommand, SlashSource } from "./wire.gen";

/** One row of the file tree, made from a TreeEntry (lib/treePages.ts). */
export interface FileEntry {
  path: string;
  name: string;
  isDir: boolean;
  isLink: boolean;
  changed: boolean;
  /** The language servers' error count after the last change (0: none). */
  errors?: number;
}

/** A command of the / picker: one of the backend's, or built into the window. */
export interface PickerCommand extends Omit<SlashCommand, "source"> {
  source: SlashSource | "builtin";
}
