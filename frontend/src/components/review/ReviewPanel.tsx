import { Suspense, useRef, useState } from "react";
import { later } from "../../lib/later";
import { useDiffLayout } from "../../lib/useDiffLayout";
import { useApp, useController } from "../../state/context";
import { chatShown, reviewFocused, reviewPlacement } from "../../state/layout";
import ApprovalCard from "./ApprovalCard";
import type { DiffLayout } from "./DiffHunk";
import LayoutToggle, { type LayoutChoice } from "./LayoutToggle";

// Loaded with the first approval that needs it: the reason's Markdown
// brings marked and DOMPurify.
const ReviewReason = later(() => import("./ReviewReason"));

/** Everything waiting for the user's decision in the open session. */
export default function ReviewPanel() {
  const c = useController();
  const pending = useApp((s) => s.session?.pending);
  const narrow = useApp((s) => s.layout.narrow);
  const focused = useApp(reviewFocused);
  const ref = useRef<HTMLDivElement>(null);
  // The chat is hidden (a narrow window's review view, or a big change in the whole window): the reason shows here.
  const withReason = useApp((s) => !chatShown(s));
  const cols = useApp((s) => reviewPlacement(s).size.cols);
  const auto = useDiffLayout(ref, cols);
  const [choice, setChoice] = useState<LayoutChoice>("auto");
  const layout: DiffLayout = choice === "auto" ? auto : choice;
  const anyChange = pending?.some((a) => a.kind === "change") ?? false;

  return (
    <div className="review-panel" ref={ref} data-layout={layout}>
      {pending && pending.length > 0 ? (
        <Suspense fallback={null}>
          <div className="review-tools">
            {anyChange && !narrow && (
              <button
                type="button"
                className="small"
                data-testid="review-focus"
                aria-pressed={focused}
                title={focused ? "Show the chat and the sidebar again (f)" : "Review in the whole window, side by side (f)"}
                onClick={() => c.layout.toggleFocusReview()}
              >
                {focused ? "⤡ Show chat" : "⤢ Whole window"}
              </button>
            )}
            {anyChange && <LayoutToggle choice={choice} auto={auto} onChange={setChoice} />}
          </div>
          {withReason && (
            // Its own boundary: the cards do not wait for the reason's Markdown code.
            <Suspense fallback={null}>
              <ReviewReason approval={pending[0]!} />
            </Suspense>
          )}
          {pending.map((a) => (
            <ApprovalCard key={a.id} approval={a} layout={layout} />
          ))}
        </Suspense>
      ) : (
        <p className="empty">Proposed changes and commands wait here for your decision.</p>
      )}
    </div>
  );
}
