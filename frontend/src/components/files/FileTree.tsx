import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { FileEntry } from "../../lib/types";
import { collationLocale, flatten, PAGE, pendingPages, withPage, type DirState, type Row } from "../../lib/treePages";
import { errorText } from "../../lib/format";
import { useApp, useController } from "../../state/context";
import { useViewRoot } from "../useViewRoot";

const ROW = 24;

/**
 * The files of the folder the open session works in: its worktree, or the
 * project folder (state/viewRoot.ts); the tree starts again from the root
 * when that folder changes. Folders open lazily and are listed in pages
 * (see lib/treePages.ts): the pages of the rows in view are asked for; the
 * visible rows are flattened and virtualised. onOpen opens a file; onDiff
 * shows what the session changed in one (its changed mark, or the d key).
 */
export default function FileTree({ onOpen, onDiff }: { onOpen: (path: string) => void; onDiff: (path: string) => void }) {
  const c = useController();
  const project = useApp((s) => s.project);
  const version = useApp((s) => s.filesVersion);
  const marks = useApp((s) => s.marksVersion);
  const root = useViewRoot();
  // The session named to the backend: a fork and its parent share one
  // worktree, so switching between them keeps the tree (root.key).
  const sessionRef = useRef(root.sessionId);
  sessionRef.current = root.sessionId;
  // Bumped when the tree starts again: pages of the folder shown before are dropped.
  const generation = useRef(0);
  const [dirs, setDirs] = useState<Record<string, DirState>>({});
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const dirsRef = useRef(dirs);
  dirsRef.current = dirs;
  const asked = useRef(new Set<string>());
  const locale = useMemo(collationLocale, []);

  /** Asks for one page of dir (version 0: list the folder afresh) and merges it. */
  const fetchPage = useCallback(
    async (dir: string, page: number, version: number) => {
      if (!project) return;
      const key = `${dir}\n${page}`;
      const gen = generation.current;
      asked.current.add(key);
      try {
        const p = await c.backend.listDir(project.id, sessionRef.current, { dir, locale, offset: page * PAGE, limit: PAGE, version });
        if (gen !== generation.current) return;
        setDirs((d) => {
          const st = d[dir];
          const folder = st?.status === "ready" ? st.folder : undefined;
          return { ...d, [dir]: { status: "ready", folder: withPage(folder, p) } };
        });
        return p.version;
      } catch (err) {
        if (gen !== generation.current) return;
        setDirs((d) => ({ ...d, [dir]: { status: "failed", error: errorText(err) } }));
      } finally {
        asked.current.delete(key);
      }
    },
    [c, project, locale],
  );

  /** Lists dir afresh; quiet keeps its rows meanwhile and asks again for the pages it had. */
  const load = useCallback(
    async (dir: string, quiet = false) => {
      const st = dirsRef.current[dir];
      const had = st?.status === "ready" ? st.folder : undefined;
      if (!quiet) setDirs((d) => ({ ...d, [dir]: { status: "loading" } }));
      const now = await fetchPage(dir, 0, 0);
      if (!quiet || !had || now !== had.version) return;
      for (const page of had.pages.keys()) if (page !== 0) void fetchPage(dir, page, now);
    },
    [fetchPage],
  );

  // A new project, or a session in another folder, starts from its root.
  useEffect(() => {
    generation.current++;
    asked.current.clear();
    dirsRef.current = {};
    setDirs({});
    setExpanded(new Set());
    setActive(0);
    if (project) void load("");
  }, [project, root.key, load]);

  // Files may have changed (an approved change), or their error marks (the
  // language servers' diagnostics): list loaded folders again.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    for (const dir of Object.keys(dirsRef.current)) void load(dir, true);
  }, [version, marks, load]);

  const rows = useMemo(() => flatten(dirs, expanded), [dirs, expanded]);

  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
    initialRect: { width: 300, height: 600 },
  });

  // Ask for the pages of the rows in view (and the overscan).
  const items = v.getVirtualItems();
  const from = items[0]?.index ?? 0;
  const to = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    for (const { dir, page } of pendingPages(rows, from, to)) {
      const st = dirsRef.current[dir];
      if (st?.status === "ready" && !asked.current.has(`${dir}\n${page}`)) void fetchPage(dir, page, st.folder.version);
    }
  }, [rows, from, to, fetchPage]);

  const toggle = (e: FileEntry, open?: boolean) => {
    const isOpen = expanded.has(e.path);
    const want = open ?? !isOpen;
    if (want === isOpen) return;
    setExpanded((s) => {
      const n = new Set(s);
      if (want) n.add(e.path);
      else n.delete(e.path);
      return n;
    });
    if (want && !dirs[e.path]) void load(e.path);
  };

  const activate = (r: Row | undefined) => {
    if (r?.kind !== "entry") return;
    if (r.entry.isDir) toggle(r.entry);
    else onOpen(r.entry.path);
  };

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const r = rows[active];
    let next = active;
    if (ev.key === "ArrowDown") next = Math.min(rows.length - 1, active + 1);
    else if (ev.key === "ArrowUp") next = Math.max(0, active - 1);
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = rows.length - 1;
    else if (ev.key === "ArrowRight" && r?.kind === "entry" && r.entry.isDir) toggle(r.entry, true);
    else if (ev.key === "ArrowLeft" && r?.kind === "entry" && r.entry.isDir && expanded.has(r.entry.path)) toggle(r.entry, false);
    else if (ev.key === "Enter" || ev.key === " ") activate(r);
    else if (ev.key === "d" && r?.kind === "entry" && r.entry.changed && !r.entry.isDir) onDiff(r.entry.path);
    else return;
    ev.preventDefault();
    // A move brings the active row into view, also when it was scrolled away.
    if (next !== active || ev.key === "Home" || ev.key === "End") {
      setActive(next);
      v.scrollToIndex(next, { align: "auto" });
    }
  };

  if (!project) return <p className="empty">Open a project to see its files.</p>;

  return (
    <div
      className="file-tree"
      ref={scrollRef}
      data-testid="file-tree"
      role="tree"
      aria-label="Project files (d shows a changed file's diff)"
      tabIndex={0}
      aria-activedescendant={rows[active]?.kind === "entry" ? `ft-${active}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: v.getTotalSize(), position: "relative" }}>
        {items.map((item) => {
          const r = rows[item.index]!;
          const style = { transform: `translateY(${item.start}px)`, height: ROW, paddingLeft: 8 + r.depth * 14 };
          if (r.kind === "pending")
            return <div key={`pending:${r.dir}:${item.index - r.base}`} className="tree-row pending" style={style} aria-hidden="true" />;
          if (r.kind !== "entry")
            return (
              <div key={`${r.kind}:${r.dir}`} className={`tree-row ${r.kind}`} style={style}>
                {r.kind === "loading" ? "Loading…" : `Could not list: ${r.error}`}
              </div>
            );
          const e = r.entry;
          const open = e.isDir && expanded.has(e.path);
          return (
            <div
              key={e.path}
              id={`ft-${item.index}`}
              role="treeitem"
              aria-level={r.depth + 1}
              aria-expanded={e.isDir ? open : undefined}
              aria-selected={item.index === active}
              className={`tree-row${item.index === active ? " active" : ""}${e.changed ? " changed" : ""}`}
              data-testid="file-tree-item"
              data-path={e.path}
              data-dir={e.isDir ? "true" : undefined}
              data-changed={e.changed ? "true" : undefined}
              data-errors={e.errors || undefined}
              style={style}
              onClick={() => {
                setActive(item.index);
                activate(r);
              }}
              title={e.path}
            >
              <span className="tree-icon" aria-hidden="true">
                {e.isDir ? (open ? "▾" : "▸") : ""}
              </span>
              <span className="tree-name">{e.name}</span>
              {e.isLink && <span className="muted"> ↪</span>}
              {!!e.errors && (
                <span className="tree-errors" title={`${e.errors} ${e.errors === 1 ? "error" : "errors"} after the last change`} aria-label={`${e.errors} ${e.errors === 1 ? "error" : "errors"}`}>
                  {e.errors}
                </span>
              )}
              {e.changed &&
                (e.isDir ? (
                  <span className="changed-dot" title="Holds files changed in this session" aria-label="changed">
                    M
                  </span>
                ) : (
                  <button
                    type="button"
                    className="changed-dot"
                    data-testid="file-tree-diff"
                    tabIndex={-1}
                    title="Changed in this session: show the diff (d)"
                    aria-label={`Show the changes to ${e.path}`}
                    onClick={(ev) => {
                      ev.stopPropagation();
                      setActive(item.index);
                      onDiff(e.path);
                    }}
                  >
                    M
                  </button>
                ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
