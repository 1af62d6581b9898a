import type { DirListing, FileEntry } from "./types";

const collator = new Intl.Collator();

/** The rows of one folder: folders first, then files, each in the user's language's order. */
export function entriesOf(l: DirListing): FileEntry[] {
  const links = new Set(l.links);
  const changed = new Set(l.changed);
  const prefix = l.dir ? `${l.dir}/` : "";
  const row = (name: string, isDir: boolean): FileEntry => ({
    path: prefix + name,
    name,
    isDir,
    isLink: links.has(name),
    changed: changed.has(name),
  });
  const dirs = l.dirs.slice().sort(collator.compare).map((n) => row(n, true));
  const files = l.files.slice().sort(collator.compare).map((n) => row(n, false));
  return dirs.concat(files);
}

/** The listing of entries (the fake backend's folders, kept as rows). */
export function listingOf(dir: string, entries: FileEntry[]): DirListing {
  const names = (pick: (e: FileEntry) => boolean) => entries.filter(pick).map((e) => e.name);
  return {
    dir,
    dirs: names((e) => e.isDir),
    files: names((e) => !e.isDir),
    links: names((e) => e.isLink),
    changed: names((e) => e.changed),
  };
}
