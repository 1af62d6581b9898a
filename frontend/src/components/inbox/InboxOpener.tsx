import { useEffect } from "react";
import { useApp, useController } from "../../state/context";
import { inboxCount } from "../../state/inbox";

/** The inbox's button with the count of decisions waiting across sessions (the sidebar, its rail, a narrow window's bar). */
export default function InboxOpener() {
  const c = useController();
  const count = useApp(inboxCount);
  return (
    <button
      type="button"
      className={`icon-button inbox-open${count ? " waiting" : ""}`}
      data-testid="inbox-open"
      data-count={count}
      title={count ? `${count} decision${count === 1 ? "" : "s"} waiting across sessions` : "Nothing waits for you"}
      onClick={() => c.inbox.open()}
    >
      <span aria-hidden="true">⚑</span>
      {count > 0 && <span className="count">{count}</span>}
      <span className="sr-only">Inbox: {count} waiting</span>
    </button>
  );
}

/** The window's title says how many decisions wait: "(3) Pilot". */
export function useInboxTitle() {
  const count = useApp(inboxCount);
  useEffect(() => {
    const title = count ? `(${count}) Pilot` : "Pilot";
    document.title = title;
    // The desktop window's own title (the runtime is there only in the app).
    (window as { runtime?: { WindowSetTitle?: (t: string) => void } }).runtime?.WindowSetTitle?.(title);
  }, [count]);
}
