// /review's findings as comments under their lines, in every diff inside
// (the Changes and Branch views), through the shared slot (lineNotes).
// A finding's text is the model's: shown through Visible, never raw.
import { useMemo, useState, type ReactNode } from "react";
import type { ReviewFinding } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import { findingsOf, useFindings, type Findings } from "../../state/findings";
import Visible from "../Visible";
import { LineNotes, type LineNote } from "./lineNotes";

function FindingCard({ f, store }: { f: ReviewFinding; store: Findings }) {
  const c = useController();
  const [busy, setBusy] = useState(false);
  const act = (what: string, run: () => Promise<void>) => {
    setBusy(true);
    run()
      .catch((err: unknown) => c.fail(what, err))
      .finally(() => setBusy(false));
  };
  return (
    <div className="line-comment review-finding" data-testid="review-finding" data-path={f.path} data-line={f.line} data-state={f.state}>
      <header>
        <span className="grow">Review finding{f.state === "fixing" ? " · the agent was asked to fix it" : ""}</span>
        <button type="button" className="small" data-testid="review-finding-fix" disabled={busy || f.state === "fixing"} onClick={() => act("Could not ask the agent to fix it", () => store.fix(f.id))} title="A turn of this session: its change is reviewed before anything is written">
          Ask the agent to fix
        </button>
        <button type="button" className="small" data-testid="review-finding-dismiss" disabled={busy} onClick={() => act("Could not dismiss the finding", () => store.dismiss(f.id))}>
          Dismiss
        </button>
      </header>
      <p className="comment-body">
        <Visible text={f.text} lines />
      </p>
    </div>
  );
}

/** Shows the open session's findings that are not dismissed under their lines in every diff inside. */
export default function FindingNotes({ children }: { children: ReactNode }) {
  const c = useController();
  const store = findingsOf(c.backend);
  const sessionId = useApp((s) => s.session?.id ?? null);
  const findings = useFindings(store, sessionId);
  const notes = useMemo<LineNote[]>(
    () => findings.filter((f) => f.state !== "dismissed").map((f) => ({ key: `finding-${f.id}`, path: f.path, line: f.line, node: <FindingCard f={f} store={store} /> })),
    [findings, store],
  );
  return <LineNotes notes={notes}>{children}</LineNotes>;
}
