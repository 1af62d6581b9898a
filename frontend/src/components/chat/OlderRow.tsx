import type { SessionView } from "../../state/sessionState";

/** The top of a transcript whose earlier messages are not read yet: they load as it comes into view. */
export default function OlderRow({ state, onRetry }: { state: SessionView["older"]; onRetry: () => void }) {
  if (typeof state === "object")
    return (
      <div className="older-row error" role="alert" data-testid="transcript-older" data-state="failed">
        <span>{state.error}</span>
        <button type="button" className="small" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  return (
    <div className="older-row" data-testid="transcript-older" data-state={state}>
      Loading earlier messages…
    </div>
  );
}
