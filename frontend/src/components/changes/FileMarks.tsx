/**
 * What a file a step changed carries besides its change: a mark when it
 * can run code (a git hook, an executable, settings: why, from the ledger)
 * and, when the ledger did not keep it, that it cannot be undone and why.
 */
export default function FileMarks({ runsCode, kept, why }: { runsCode?: string; kept: boolean; why?: string }) {
  if (!runsCode && kept) return null;
  return (
    <span className="file-marks">
      {runsCode && (
        <span className="badge runs-code" data-testid="runs-code" title={`Can run code: ${runsCode}`}>
          can run code: {runsCode}
        </span>
      )}
      {!kept && (
        <span className="muted small-text not-kept" data-testid="not-kept">
          {why || "not kept"}; cannot be undone
        </span>
      )}
    </span>
  );
}
