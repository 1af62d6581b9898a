import { describe, expect, it } from "vitest";
import en from "./collation/en.txt?raw";
import ascii from "./collation/ascii.txt?raw";
import sv from "./collation/sv.txt?raw";
import type { DirPage, TreeEntry } from "../wire.gen";
import { flatten, PAGE, pendingPages, withPage, type DirState, type Folder, type Row } from "../treePages";

/** A page of dir with n files named from index offset (file000123.txt). */
function page(dir: string, offset: number, n: number, total: number, version = 1, mark: (i: number) => Partial<TreeEntry> = () => ({})): DirPage {
  const entries = Array.from({ length: Math.max(0, Math.min(n, total - offset)) }, (_, k) => ({
    name: `file${String(offset + k).padStart(6, "0")}.txt`,
    ...mark(offset + k),
  }));
  return { dir, version, total, offset, entries };
}

const ready = (folder: Folder): DirState => ({ status: "ready", folder });
const paths = (rows: Row[]) => rows.map((r) => (r.kind === "entry" ? r.entry.path : r.kind));

describe("the backend's order is the window's collator's", () => {
  // backend/namesort sorts these files into this order (its tests check it);
  // the engine's Intl.Collator must agree, or the tree's order would change.
  it.each([
    ["en.txt", en, "en-US"],
    ["ascii.txt", ascii, "en"],
    ["sv.txt", sv, "sv"],
  ])("%s", (_, text, locale) => {
    const want = text.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
    const shuffled = want.slice().reverse();
    expect(shuffled.sort(new Intl.Collator(locale).compare)).toEqual(want);
  });
});

describe("withPage", () => {
  it("adds pages of one version and starts again from a newer one", () => {
    let f = withPage(undefined, page("flat", 0, PAGE, 1000));
    f = withPage(f, page("flat", 4 * PAGE, PAGE, 1000));
    expect([...f.pages.keys()]).toEqual([0, 4]);
    expect(f.pages.get(4)![0]).toEqual({ path: "flat/file000800.txt", name: "file000800.txt", isDir: false, isLink: false, changed: false });

    const newer = withPage(f, page("flat", 2 * PAGE, PAGE, 999, 2));
    expect(newer.version).toBe(2);
    expect(newer.total).toBe(999);
    expect([...newer.pages.keys()]).toEqual([2]);

    expect(withPage(newer, page("flat", 0, PAGE, 1000, 1))).toBe(newer); // a late page of the old listing
  });

  it("keeps the marks a page carries", () => {
    const f = withPage(undefined, {
      dir: "",
      version: 1,
      total: 4,
      offset: 0,
      entries: [{ name: "src", dir: true }, { name: "ln", dir: true, link: true }, { name: "a.go", changed: true }, { name: "b.go", errors: 3 }],
    });
    expect(f.pages.get(0)).toEqual([
      { path: "src", name: "src", isDir: true, isLink: false, changed: false },
      { path: "ln", name: "ln", isDir: true, isLink: true, changed: false },
      { path: "a.go", name: "a.go", isDir: false, isLink: false, changed: true },
      { path: "b.go", name: "b.go", isDir: false, isLink: false, changed: false, errors: 3 },
    ]);
  });
});

describe("flatten and pendingPages", () => {
  const total = 100_000;
  // The root: flat/ and README.md; flat/ expanded with its first page and
  // the one holding its last file.
  const root = withPage(undefined, { dir: "", version: 1, total: 2, offset: 0, entries: [{ name: "flat", dir: true }, { name: "README.md" }] });
  let flat = withPage(undefined, page("flat", 0, PAGE, total));
  flat = withPage(flat, page("flat", total - PAGE, PAGE, total, 1, (i) => (i === total - 10 ? { changed: true } : {})));
  const dirs = { "": ready(root), flat: ready(flat) };

  it("has a row for every entry of an expanded folder, pending where its page has not come", () => {
    const rows = flatten(dirs, new Set(["flat"]));
    expect(rows).toHaveLength(total + 2);
    expect(paths(rows.slice(0, 3))).toEqual(["flat", "flat/file000000.txt", "flat/file000001.txt"]);
    expect(rows[PAGE + 1]!.kind).toBe("pending");
    // The pending rows of a page share one object (100,000 rows cost references).
    expect(new Set(rows.filter((r) => r.kind === "pending")).size).toBe(total / PAGE - 2);
    const last = rows[total]!;
    expect(last.kind === "entry" && last.entry).toMatchObject({ path: `flat/file${String(total - 1).padStart(6, "0")}.txt`, changed: false });
    const marked = rows[total - 9]!;
    expect(marked.kind === "entry" && marked.entry).toMatchObject({ path: "flat/file099990.txt", changed: true });
    expect(paths(rows.slice(-1))).toEqual(["README.md"]);
    expect(flatten(dirs, new Set())).toHaveLength(2); // collapsed
  });

  it("asks for each page the rows in view wait for, once", () => {
    const rows = flatten(dirs, new Set(["flat"]));
    expect(pendingPages(rows, 0, 50)).toEqual([]);
    // Rows 1 + 40·200 … : flat/'s entries 8,000 to 8,399, pages 40 and 41.
    expect(pendingPages(rows, 1 + 40 * PAGE, 1 + 42 * PAGE - 1)).toEqual([
      { dir: "flat", page: 40 },
      { dir: "flat", page: 41 },
    ]);
    expect(pendingPages(rows, rows.length - 40, rows.length + 10)).toEqual([]);
    expect(pendingPages(rows, rows.length - PAGE - 10, rows.length + 10)).toEqual([{ dir: "flat", page: total / PAGE - 2 }]);
    expect(pendingPages(rows, -5, -1)).toEqual([]);
  });

  it("places an expanded subfolder's rows after its entry and counts pending rows after them", () => {
    const files = Array.from({ length: PAGE - 1 }, (_, i) => ({ name: `f${i}` }));
    const top = withPage(undefined, { dir: "", version: 1, total: 2 * PAGE + 1, offset: 0, entries: [{ name: "a", dir: true }, ...files] });
    const sub = withPage(undefined, { dir: "a", version: 3, total: 2, offset: 0, entries: [{ name: "x" }, { name: "y" }] });
    const rows = flatten({ "": ready(top), a: ready(sub) }, new Set(["a"]));
    expect(paths(rows.slice(0, 4))).toEqual(["a", "a/x", "a/y", "f0"]);
    expect(rows).toHaveLength(2 * PAGE + 1 + 2);
    expect(rows[3]!.kind === "entry" && rows[3]!.depth).toBe(0);
    // Row 2 + PAGE is the root's entry PAGE (page 1), the last row its entry 2·PAGE (page 2).
    expect(pendingPages(rows, 0, 1 + PAGE)).toEqual([]);
    expect(pendingPages(rows, 2 + PAGE, 2 + PAGE)).toEqual([{ dir: "", page: 1 }]);
    expect(pendingPages(rows, rows.length - 1, rows.length - 1)).toEqual([{ dir: "", page: 2 }]);
  });

  it("shows a folder loading or failed as one row", () => {
    const rows = flatten({ "": ready(root), flat: { status: "failed", error: "gone" } }, new Set(["flat"]));
    expect(rows[1]).toEqual({ kind: "failed", dir: "flat", depth: 1, error: "gone" });
    expect(flatten({ "": { status: "loading" } }, new Set())).toEqual([{ kind: "loading", dir: "", depth: 0 }]);
  });
});
