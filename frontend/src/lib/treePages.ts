import type { DirPage } from "./wire.gen";
import type { FileEntry } from "./types";

/**
 * The file tree lists a folder in pages (ListDir): the backend sorts the
 * folder in the window's collation order and keeps the listing, the tree
 * asks for the pages of the rows in view. Rows whose page has not come yet
 * are "pending" (shown as a blank row of the same height), so the
 * scrollbar is the folder's full length from the first page on.
 */

/** Entries per page: a screenful is about 35 rows. */
export const PAGE = 200;

/** The locale ListDir orders by: the one the window's Intl.Collator uses. */
export const collationLocale = (): string => new Intl.Collator().resolvedOptions().locale;

/** A listed folder: the pages that came, all of one listing version. */
export interface Folder {
  version: number;
  total: number;
  /** Page number → its entries. */
  pages: ReadonlyMap<number, FileEntry[]>;
}

export type DirState = { status: "loading" } | { status: "ready"; folder: Folder } | { status: "failed"; error: string };

export type Row =
  | { kind: "entry"; entry: FileEntry; depth: number }
  /** Entry (row index − base) of dir, whose page has not come. */
  | { kind: "pending"; dir: string; base: number; depth: number }
  | { kind: "loading"; dir: string; depth: number }
  | { kind: "failed"; dir: string; depth: number; error: string };

/** The rows of a page. */
export function entriesOf(p: DirPage): FileEntry[] {
  const prefix = p.dir ? `${p.dir}/` : "";
  return p.entries.map((e) => ({ path: prefix + e.name, name: e.name, isDir: !!e.dir, isLink: !!e.link, changed: !!e.changed, ...(e.errors ? { errors: e.errors } : {}) }));
}

/**
 * folder with page p added. A page of a newer listing (the folder changed)
 * starts the folder again from it; a page of an older one is dropped.
 */
export function withPage(folder: Folder | undefined, p: DirPage): Folder {
  if (folder && p.version < folder.version) return folder;
  const pages = new Map(folder && folder.version === p.version ? folder.pages : []);
  pages.set(Math.floor(p.offset / PAGE), entriesOf(p));
  return { version: p.version, total: p.total, pages };
}

/**
 * The tree's rows, depth first: each folder's entries, an expanded
 * folder's rows after its entry. The pending rows of a page share one
 * object, so a folder of 100,000 files costs an array of references.
 */
export function flatten(dirs: Readonly<Record<string, DirState>>, expanded: ReadonlySet<string>): Row[] {
  const out: Row[] = [];
  const walk = (dir: string, depth: number) => {
    const st = dirs[dir];
    if (!st) return;
    if (st.status === "loading") out.push({ kind: "loading", dir, depth });
    else if (st.status === "failed") out.push({ kind: "failed", dir, depth, error: st.error });
    else {
      const { total, pages } = st.folder;
      for (let page = 0; page * PAGE < total; page++) {
        const entries = pages.get(page);
        if (!entries) {
          const pending: Row = { kind: "pending", dir, base: out.length - page * PAGE, depth };
          const n = Math.min(PAGE, total - page * PAGE);
          for (let k = 0; k < n; k++) out.push(pending);
          continue;
        }
        for (const entry of entries) {
          out.push({ kind: "entry", entry, depth });
          if (entry.isDir && expanded.has(entry.path)) walk(entry.path, depth + 1);
        }
      }
    }
  };
  walk("", 0);
  return out;
}

/** The pages (folder and page number, each once) that the rows from..to (inclusive) wait for. */
export function pendingPages(rows: readonly Row[], from: number, to: number): { dir: string; page: number }[] {
  const seen = new Set<string>();
  const out: { dir: string; page: number }[] = [];
  for (let i = Math.max(0, from); i <= Math.min(to, rows.length - 1); i++) {
    const r = rows[i]!;
    if (r.kind !== "pending") continue;
    const page = Math.floor((i - r.base) / PAGE);
    const key = `${r.dir}\n${page}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ dir: r.dir, page });
  }
  return out;
}
