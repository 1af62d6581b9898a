import { memo, Suspense, useEffect, useRef, type KeyboardEvent } from "react";
import { later } from "../../lib/later";
import { relativeTime } from "../../lib/format";
import { useDiffLayout } from "../../lib/useDiffLayout";
import { visibleString } from "../../lib/visible";
import type { Approval, InboxItem } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { currentItem } from "../../state/inbox";
import Modal from "../Modal";
import ApprovalCard from "../review/ApprovalCard";
import InboxPlan from "./InboxPlan";

// The agent's words are Markdown (marked and DOMPurify load with them).
const Markdown = later(() => import("../Markdown"));

const KIND: Record<string, string> = {
  change: "Change",
  command: "Command",
  outside_sandbox: "Outside the sandbox",
  network: "Network",
  mcp: "MCP call",
  fetch: "Web page",
  plan: "Plan",
  budget: "Budget",
  elicitation: "Form",
};

/** One line of what a decision is about, every character visible (it is the model's or a server's text). */
function what(a: Approval): string {
  switch (a.kind) {
    case "change":
      return (a.paths ?? []).join(", ");
    case "mcp":
      return `${a.server ?? ""}: ${a.mcpTool ?? ""}`;
    case "network":
      return a.port ? `${a.host ?? ""}:${a.port}` : (a.host ?? "");
    case "fetch":
      return a.host ?? "";
    case "plan": // the plan is its reason
      return "";
    default:
      return a.command ?? a.tool;
  }
}

/** One decision of the list (only the rows whose `shown` changes render again as the user moves). */
const Row = memo(function Row({ item, shown }: { item: InboxItem; shown: boolean }) {
  const c = useController();
  const a = item.approval;
  return (
    <li>
      <button
        type="button"
        className={`inbox-item${shown ? " active" : ""}`}
        data-testid="inbox-item"
        data-session-id={item.sessionId}
        data-kind={a.kind}
        data-approval-id={a.id}
        aria-current={shown ? "true" : undefined}
        onClick={() => c.inbox.show(a.id)}
      >
        <span className="inbox-row">
          <span className="inbox-kind">{KIND[a.kind] ?? a.kind}</span>
          <span className="inbox-title">{visibleString(item.title) || "Untitled session"}</span>
          <span className="inbox-since muted">{relativeTime(item.since)}</span>
        </span>
        <span className="inbox-row muted">
          <span className="inbox-project">{item.project}</span>
          {item.branch && <span className="item-branch">{item.branch}</span>}
          {what(a) && <code className="inbox-what">{visibleString(what(a))}</code>}
        </span>
        {item.reason && <span className="inbox-reason muted">{visibleString(item.reason.split("\n")[0] ?? "")}</span>}
      </button>
    </li>
  );
});

/** The input the user is typing in, where a letter is text, not a key. */
const typing = (t: EventTarget) => t instanceof HTMLElement && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.isContentEditable);

/**
 * Every waiting decision of every live session, oldest first: the list,
 * then the one shown with its session, the agent's words and its card (the
 * session's review shows the same card; deciding in either decides both).
 * Keys: the review's own (y/n per hunk, j/k, a for all) in a change; in
 * any other decision y approves, n refuses, a approves (a plan's n goes to
 * what should change in it, which keeps the session planning); j/k move between
 * decisions, Enter opens the decision's session. Deciding one moves to the
 * next.
 */
export default function Inbox() {
  const c = useController();
  const items = useApp((s) => s.inbox.items);
  const error = useApp((s) => s.inbox.error);
  const item = useApp(currentItem);
  const root = useRef<HTMLDivElement>(null);
  const detail = useRef<HTMLDivElement>(null);
  const layout = useDiffLayout(detail);
  const id = item?.approval.id ?? null;
  const kind = item?.approval.kind;
  const phase = useApp((s) => (id ? s.reviews[id]?.phase : undefined));

  useEffect(() => {
    if (id && kind === "change") void c.approvals.loadChange(id);
  }, [c, id, kind]);

  // The decision shown takes the keys: a change's own card once it is read
  // and its code has loaded (it may come after its review is ready), else
  // the inbox.
  useEffect(() => {
    const box = detail.current;
    if (!box) return;
    box.scrollTo?.({ top: 0 });
    const at = document.activeElement;
    if (at && typing(at) && box.contains(at)) return;
    const cardOf = () => box.querySelector<HTMLElement>("[data-testid=change-review]");
    const card = cardOf();
    (card ?? root.current)?.focus({ preventScroll: true });
    if (card || kind !== "change") return;
    const watch = new MutationObserver(() => {
      const came = cardOf();
      if (!came) return;
      watch.disconnect();
      if (document.activeElement === root.current || document.activeElement === document.body) came.focus({ preventScroll: true });
    });
    watch.observe(box, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [id, phase, kind]);

  const press = (selector: string) => detail.current?.querySelector<HTMLButtonElement>(selector)?.click();

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.defaultPrevented || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    const handled = () => e.preventDefault();
    if (k === "j" || k === "ArrowDown") {
      handled();
      c.inbox.move(1);
    } else if (k === "k" || k === "ArrowUp") {
      handled();
      c.inbox.move(-1);
    } else if (k === "Enter" && (e.target === root.current || !(e.target instanceof HTMLButtonElement))) {
      handled();
      void c.inbox.enter();
    } else if (item && kind === "plan" && (k === "y" || k === "a" || k === "n")) {
      // A plan is refused with what should change in it: n goes to that box.
      handled();
      if (k === "n") detail.current?.querySelector<HTMLElement>("[data-testid=plan-feedback]")?.focus();
      else press("[data-testid=plan-approve]");
    } else if (item && kind !== "change" && (k === "y" || k === "a" || k === "n")) {
      handled();
      press(k === "n" ? ".review-actions button.danger-outline" : ".review-actions button.primary");
    } else if (item && kind === "change" && k === "a") {
      handled();
      press("[data-testid=diff-approve-all]");
    }
  };

  return (
    <Modal title={items.length ? `Waiting for you: ${items.length}` : "Nothing waits for you"} onClose={() => c.inbox.close()} testId="inbox" className="inbox-modal">
      <div ref={root} className="inbox" tabIndex={-1} onKeyDown={onKeyDown} aria-label="Keys: j and k move, y approve, n reject, a approve all, Enter opens the session, Esc closes.">
        {error && <p className="error">{error}</p>}
        {items.length === 0 ? (
          <p className="empty">No session waits for a decision. Changes, commands, hosts, MCP calls, budgets and plans of every session wait here.</p>
        ) : (
          <>
            <ol className="inbox-list" aria-label="Decisions waiting, oldest first">
              {items.map((x) => (
                <Row key={x.approval.id} item={x} shown={x.approval.id === id} />
              ))}
            </ol>
            <p className="keys-hint" aria-hidden="true">
              <kbd>j</kbd>/<kbd>k</kbd> next · <kbd>y</kbd> approve · <kbd>n</kbd> reject · <kbd>a</kbd> all · <kbd>Enter</kbd> open the session · <kbd>Esc</kbd> close
            </p>
          </>
        )}
        <div ref={detail} className="inbox-detail" data-layout={layout}>
          {item && (
            <Suspense fallback={null}>
              <section className="review-reason" aria-label="Why this is asked">
                <div className="inbox-about">
                  <strong>{visibleString(item.title) || "Untitled session"}</strong>
                  {item.branch && <span className="item-branch">{item.branch}</span>}
                  <span className="muted">{item.project}</span>
                  <span className="spacer" />
                  <button type="button" className="link" onClick={() => void c.inbox.enter()}>
                    Open the session (Enter)
                  </button>
                </div>
                <div className="reason-row">
                  <span className="reason-who">{kind === "plan" ? "Pilot's plan" : "Pilot says"}</span>
                  {item.reason ? <Markdown text={item.reason} /> : <p className="muted">Pilot asked this without a word of explanation.</p>}
                </div>
              </section>
              {kind === "plan" ? (
                <InboxPlan key={item.approval.id} item={item} />
              ) : (
                <ApprovalCard key={item.approval.id} approval={item.approval} layout={layout} />
              )}
            </Suspense>
          )}
        </div>
      </div>
    </Modal>
  );
}
