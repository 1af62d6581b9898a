import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useController } from "../../state/context";
import { useJobOutput } from "./useJobs";

/** Each output line's height in px (jobs.css: .job-line; lines never wrap). */
export const ROW_PX = 18;
/** Rows rendered above and below the view. */
const OVERSCAN = 30;
/** The view's height assumed before it is measured. */
const FIRST_VIEW = 600;
/** The characters of one line rendered (a line of a megabyte would stall the frame). */
const LINE_CHARS = 4000;
/** Terminal colour and cursor sequences, shown as the text they colour. */
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

function shown(line: string): string {
  const text = line.includes("\x1b") ? line.replace(ESCAPES, "") : line;
  return text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)} … (${(text.length - LINE_CHARS).toLocaleString("en-US")} more characters)` : text;
}

/**
 * A job's output, virtualised: the lines have one height, so the rows in
 * view follow from the scroll position alone and only they (and a margin)
 * are in the DOM, however many the job wrote. It follows the end while the
 * user is there and stays put once they scroll up (the place is kept per
 * job, across sessions and tabs); output comes at most once per frame
 * (JobActions).
 */
export default function JobOutputView({ sessionId, jobId }: { sessionId: number; jobId: string }) {
  const c = useController();
  const o = useJobOutput(sessionId, jobId);
  const ref = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: o.place.scrollTop, height: 0 });
  /** The scrollTop this view set itself (its scroll event is not the user's). */
  const setByUs = useRef<number | null>(null);
  const lastBase = useRef(o.lines.base);

  useEffect(() => c.jobs.watch(sessionId, jobId), [c, sessionId, jobId]);

  const rows = o.lines.rows;
  const base = o.lines.base;

  // The view's height, and its scroll position when it does not follow the
  // end (following it, the rows in sight come from the row count: a state
  // change per frame would render twice).
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    setView((v) => {
      const top = o.place.pinned ? v.top : el.scrollTop;
      return v.top === top && v.height === el.clientHeight ? v : { top, height: el.clientHeight };
    });
  }, [o]);

  const scrollTo = (el: HTMLElement, top: number) => {
    el.scrollTop = top;
    setByUs.current = el.scrollTop;
  };

  // Back where the user left this job's output (when they had scrolled up).
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && !o.place.pinned) scrollTo(el, o.place.scrollTop);
  }, [o]);

  // After each render: at the end while following it; else the same lines
  // in view when old ones were dropped from the front.
  useLayoutEffect(() => {
    const el = ref.current;
    const shift = base - lastBase.current;
    lastBase.current = base;
    if (!el) return;
    if (o.place.pinned) scrollTo(el, el.scrollHeight);
    else if (shift !== 0) {
      scrollTo(el, Math.max(0, el.scrollTop - shift * ROW_PX));
      o.place = { pinned: false, scrollTop: el.scrollTop };
    }
    measure();
  });

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measure, rows > 0]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    if (setByUs.current === el.scrollTop) {
      setByUs.current = null;
      return;
    }
    // The user scrolled: following the end again only when they are back at it.
    setByUs.current = null;
    const pinned = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_PX;
    o.place = { pinned, scrollTop: el.scrollTop };
    measure();
  };

  const height = view.height || FIRST_VIEW;
  const top = o.place.pinned ? Math.max(0, rows * ROW_PX - height) : view.top;
  const first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const last = Math.min(rows - 1, Math.ceil((top + height) / ROW_PX) + OVERSCAN);
  // Keyed by place in the window, not by line: as output scrolls by, the
  // same elements take the new lines' text (no element made or dropped).
  const lines = [];
  for (let i = first; i <= last; i++) {
    lines.push(
      <div key={i - first} className={o.lines.isCut(i) ? "job-line cut" : "job-line"}>
        {shown(o.lines.row(i))}
      </div>,
    );
  }

  return (
    <div className="job-output-wrap">
      {o.error && <p className="error pad">{o.error}</p>}
      {rows === 0 ? (
        <p className="empty pad" data-testid="job-output" data-rows={0}>
          {o.reading ? "Reading the output…" : "No output yet."}
        </p>
      ) : (
        <div ref={ref} className="job-output" data-testid="job-output" data-rows={rows} role="log" aria-label={`Output of job ${jobId}`} tabIndex={0} onScroll={onScroll}>
          <div className="job-output-inner" style={{ height: rows * ROW_PX }}>
            <div className="job-lines" style={{ transform: `translateY(${first * ROW_PX}px)` }}>
              {lines}
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
