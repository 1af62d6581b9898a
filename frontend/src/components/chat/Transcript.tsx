import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useApp, useController } from "../../state/context";
import type { TimelineNotice } from "../../state/sessionState";
import MessageRow, { isVisible } from "./MessageRow";
import NoticeRow from "./NoticeRow";
import OlderRow from "./OlderRow";

type Row = { key: string; kind: "message"; id: number } | { key: string; kind: "notice"; notice: TimelineNotice } | { key: string; kind: "older" };

const BOTTOM_SLACK = 48;
const ESTIMATE = 96;
/** Older messages are read when the first row in view is this close to the top. */
const OLDER_AHEAD = 10;

/**
 * The session's messages as a virtualised list with measured row heights.
 * It follows new output while the user is at the bottom and stays put once
 * they scroll up.
 */
export default function Transcript() {
  const c = useController();
  const sessionId = useApp((s) => s.session?.id ?? null);
  const messageIds = useApp((s) => s.session?.messageIds);
  const messages = useApp((s) => s.session?.messages);
  const notices = useApp((s) => s.session?.notices);
  const focusId = useApp((s) => s.session?.focusMessageId ?? null);
  const hasOlder = useApp((s) => s.session?.hasOlder ?? false);
  const older = useApp((s) => s.session?.older ?? "idle");
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // Where the view was put when it last followed the output to the end.
  const pinned = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  const [hitId, setHitId] = useState<number | null>(null);
  // The search hit stays centred while the rows around it settle (their
  // Markdown and code may load and grow after the first scroll), until
  // the user scrolls, clicks or types in the transcript.
  const holdHit = useRef(false);

  const rows = useMemo<Row[]>(() => {
    const out: Row[] = [];
    const byAfter = new Map<number | null, TimelineNotice[]>();
    for (const n of notices ?? []) {
      const list = byAfter.get(n.afterMessageId) ?? [];
      list.push(n);
      byAfter.set(n.afterMessageId, list);
    }
    if (hasOlder || older !== "idle") out.push({ key: "older", kind: "older" });
    for (const n of byAfter.get(null) ?? []) out.push({ key: n.id, kind: "notice", notice: n });
    for (const id of messageIds ?? []) {
      if (isVisible(messages?.[id])) out.push({ key: `m${id}`, kind: "message", id });
      for (const n of byAfter.get(id) ?? []) out.push({ key: n.id, kind: "notice", notice: n });
    }
    return out;
  }, [messageIds, messages, notices, hasOlder, older]);

  // A session opens at its end: scrolled there before the list (next)
  // reads where it is, so that it never renders the top rows first.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATE,
    overscan: 6,
    getItemKey: (i) => rows[i]?.key ?? i,
    initialRect: { width: 800, height: 600 },
    // A session opens at its end: render the last rows first.
    initialOffset: () => rows.length * ESTIMATE,
  });
  const items = v.getVirtualItems();

  // Older messages put before those in view leave the view where it was:
  // the first message row keeps its place on screen.
  const firstMessage = rows.find((r) => r.kind === "message")?.key ?? null;
  const anchor = useRef<{ key: string | null; start: number }>({ key: null, start: 0 });
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const prev = anchor.current;
    const at = (key: string | null) => v.measurementsCache.find((m) => m.key === key)?.start;
    if (el && prev.key !== null && prev.key !== firstMessage) {
      const now = at(prev.key);
      if (now !== undefined && now > prev.start) {
        el.scrollTop += now - prev.start;
        // The list renders the rows now in view before this frame is painted.
        el.dispatchEvent(new Event("scroll"));
      }
    }
    anchor.current = { key: firstMessage, start: at(firstMessage) ?? 0 };
  }, [firstMessage, v]);

  // A session the user comes back to opens where they left it, unless it
  // followed the end (or a search hit asks for a message).
  const restored = useRef(false);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (sessionId === null || !el) return;
    const at = c.memory.place(sessionId);
    const idx = at && !at.stick && focusId === null ? rows.findIndex((r) => r.key === at.key) : -1;
    if (at && idx >= 0) {
      restored.current = true;
      stick.current = false;
      setAtBottom(false);
      const [start] = v.getOffsetForIndex(idx, "start") ?? [0];
      v.scrollToOffset(start + at.offset);
    }
    return () => {
      const top = el.scrollTop;
      const first = v.getVirtualItems().find((i) => i.end > top);
      c.memory.keepPlace(sessionId, { stick: stick.current, key: first ? String(first.key) : "", offset: first ? top - first.start : 0 });
    };
    // Once per session shown: rows and focus are read as they are then.
  }, [c, sessionId, v]);

  // Near the top, read the older messages.
  const firstInView = v.range?.startIndex ?? 0;
  useEffect(() => {
    if (hasOlder && older === "idle" && firstInView < OLDER_AHEAD) void c.loadOlder();
  }, [c, hasOlder, older, firstInView]);

  // A newly opened session starts at its end.
  useEffect(() => {
    if (restored.current) {
      restored.current = false;
      return;
    }
    stick.current = true;
    setAtBottom(true);
  }, [sessionId]);

  const total = v.getTotalSize();
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stick.current && focusId === null) {
      el.scrollTop = el.scrollHeight;
      pinned.current = el.scrollTop;
    }
  }, [total, rows.length, focusId]);

  // Scroll to a search hit once, mark it for a moment.
  useEffect(() => {
    if (focusId === null) return;
    const idx = rows.findIndex((r) => r.kind === "message" && r.id === focusId);
    if (idx < 0) return;
    stick.current = false;
    setAtBottom(false);
    v.scrollToIndex(idx, { align: "center" });
    holdHit.current = true;
    setHitId(focusId);
    c.clearFocus();
  }, [focusId, rows, v, c]);
  const hitIdx = hitId === null ? -1 : rows.findIndex((r) => r.kind === "message" && r.id === hitId);
  useLayoutEffect(() => {
    if (hitIdx >= 0 && holdHit.current) v.scrollToIndex(hitIdx, { align: "center" });
  }, [total, hitIdx, v]);
  const releaseHit = () => {
    holdHit.current = false;
  };
  useEffect(() => {
    if (hitId === null) return;
    const t = setTimeout(() => setHitId(null), 2500);
    return () => clearTimeout(t);
  }, [hitId]);

  // "↓ Latest" only when there is somewhere to scroll: a chat that fits
  // (or shrank to fit) is at its end.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || atBottom) return;
    if (el.scrollHeight - el.clientHeight < BOTTOM_SLACK) {
      stick.current = true;
      setAtBottom(true);
    }
  }, [total, rows.length, atBottom]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    // While the view follows a streaming answer, the text may grow between
    // the scroll to the end and this event: only a scroll above where the
    // view was put is the user leaving the end.
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK || (stick.current && el.scrollTop >= pinned.current - 1);
    stick.current = bottom;
    if (bottom !== atBottom) setAtBottom(bottom);
  };

  const jump = () => {
    stick.current = true;
    setAtBottom(true);
    const el = scrollRef.current;
    if (el) {
      el.scrollTop = el.scrollHeight;
      pinned.current = el.scrollTop;
    }
    if (rows.length) v.scrollToIndex(rows.length - 1, { align: "end" });
  };

  return (
    <div className="transcript-wrap">
      <div
        className="transcript"
        ref={scrollRef}
        onScroll={onScroll}
        onWheel={releaseHit}
        onPointerDown={releaseHit}
        onKeyDown={releaseHit}
        onTouchStart={releaseHit}
        data-testid="transcript"
        role="log"
        aria-label="Conversation"
      >
        {rows.length === 0 ? (
          <div className="welcome">
            <h1>What should we build?</h1>
            <p>Ask about the code, or describe a change. Every edit comes to you as a diff to approve, hunk by hunk.</p>
            <p className="hint">
              Type <kbd>@</kbd> to attach a file · <kbd>Enter</kbd> sends · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line
            </p>
          </div>
        ) : (
          <div className="virtual-inner" style={{ height: total }}>
            {items.map((item) => {
              const row = rows[item.index]!;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={v.measureElement}
                  className="virtual-row"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {row.kind === "message" ? (
                    <MessageRow id={row.id} highlighted={row.id === hitId} />
                  ) : row.kind === "notice" ? (
                    <NoticeRow notice={row.notice} />
                  ) : (
                    <OlderRow state={older} onRetry={() => void c.loadOlder()} />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
      {!atBottom && rows.length > 0 && (
        <button type="button" className="jump-latest" onClick={jump}>
          ↓ Latest
        </button>
      )}
    </div>
  );
}
