import { useMemo } from "react";
import type { Hunk } from "../../lib/wire.gen";
import DiffTable from "../review/DiffTable";
import { CommentNotes, ReviewSubmit } from "../review/LineComments";

/** The path a plan's comments are anchored on (`plan:4` to the model). */
const PLAN = "plan";

/**
 * A plan's text line by line, to comment on its lines (see
 * review/LineComments.tsx): every line is one of "the file after the
 * change", so the diffs' slot serves it as it is.
 */
export default function PlanLines({ sessionId, callId, text }: { sessionId: number; callId: string; text: string }) {
  const files = useMemo(() => {
    const lines = text.split("\n");
    const hunk: Hunk = {
      index: 0,
      oldStart: 1,
      oldLines: lines.length,
      newStart: 1,
      newLines: lines.length,
      lines: lines.map((t, i) => ({ kind: "context", text: t, oldNo: i + 1, newNo: i + 1 })),
    };
    return [{ path: PLAN, hunks: [hunk] }];
  }, [text]);
  return (
    <div className="plan-lines">
      <CommentNotes sessionId={sessionId} origin="plan" originRef={callId} files={files}>
        <ReviewSubmit sessionId={sessionId} />
        <DiffTable hunk={files[0]!.hunks[0]!} lang="markdown" layout="unified" path={PLAN} />
      </CommentNotes>
    </div>
  );
}
