import { useEffect, useRef, useState } from "react";
import { useApp } from "../../state/context";
import BashApproval from "./BashApproval";
import BudgetApproval from "./BudgetApproval";
import ChangeReview from "./ChangeReview";
import type { DiffLayout } from "./DiffHunk";

const NARROW = 640;
type LayoutChoice = "auto" | DiffLayout;

/** Everything waiting for the user's decision in the open session. */
export default function ReviewPanel() {
  const pending = useApp((s) => s.session?.pending);
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);
  const [choice, setChoice] = useState<LayoutChoice>("auto");

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w) setWidth(w);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const layout: DiffLayout = choice === "auto" ? (width < NARROW ? "unified" : "split") : choice;

  return (
    <div className="review-panel" ref={ref} data-layout={layout}>
      {pending && pending.length > 0 ? (
        <>
          <div className="layout-toggle" role="radiogroup" aria-label="Diff layout">
            {(["auto", "split", "unified"] as const).map((k) => (
              <button key={k} type="button" role="radio" aria-checked={choice === k} className={`seg${choice === k ? " on" : ""}`} onClick={() => setChoice(k)}>
                {k === "auto" ? `Auto (${width < NARROW ? "unified" : "split"})` : k === "split" ? "Side by side" : "Unified"}
              </button>
            ))}
          </div>
          {pending.map((a) =>
            a.kind === "change" ? (
              <ChangeReview key={a.id} approval={a} layout={layout} />
            ) : a.tool === "budget" ? (
              <BudgetApproval key={a.id} approval={a} />
            ) : (
              <BashApproval key={a.id} approval={a} />
            ),
          )}
        </>
      ) : (
        <p className="empty">Proposed changes and commands wait here for your decision.</p>
      )}
    </div>
  );
}
