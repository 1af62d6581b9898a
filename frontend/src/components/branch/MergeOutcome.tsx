import type { MergeResult } from "../../lib/wire.gen";

interface Props {
  result: MergeResult;
  busy: boolean;
  /** Merge the refused files anyway where their hunks still apply. */
  onForce: () => void;
  /** Open the Changes view of the session that holds the merge (to undo it). */
  onOpenChanges: (sessionId: number) => void;
}

/** What a merge did: the files written, and each file it refused with the backend's sentence. */
export default function MergeOutcome({ result, busy, onForce, onOpenChanges }: Props) {
  const n = result.merged.length;
  return (
    <div className="merge-outcome" data-testid="branch-merge-result" data-merged={n} data-conflicts={result.conflicts.length}>
      {n > 0 ? (
        <p role="status">
          Merged into your folder: {result.merged.join(", ")}. It is one change you can undo from the Changes view of the session that holds it.{" "}
          {result.sessionId > 0 && (
            <button type="button" className="small" data-testid="branch-merge-changes" onClick={() => onOpenChanges(result.sessionId)}>
              Open its Changes
            </button>
          )}
        </p>
      ) : (
        <p role="status">Nothing was merged.</p>
      )}
      {result.conflicts.length > 0 && (
        <>
          <p className="error">
            {result.conflicts.length === 1 ? "One file was" : `${result.conflicts.length} files were`} not merged, and not touched:
          </p>
          <ul className="merge-conflicts">
            {result.conflicts.map((x) => (
              <li key={x.path} data-testid="branch-conflict" data-path={x.path}>
                <code>{x.path}</code>: {x.why}
              </li>
            ))}
          </ul>
          <button type="button" className="small danger-outline" data-testid="branch-merge-force" disabled={busy} onClick={onForce}>
            Merge anyway where the hunks still apply
          </button>
        </>
      )}
    </div>
  );
}
