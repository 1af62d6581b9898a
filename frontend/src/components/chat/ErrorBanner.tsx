import { useEffect, useState } from "react";
import { useApp, useController } from "../../state/context";

function Countdown({ until, text }: { until: number; text: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, []);
  const secs = Math.max(0, Math.ceil((until - now) / 1000));
  return (
    <div className="retry-banner" role="status" data-testid="retry-countdown">
      <span className="spinner" aria-hidden="true" />
      {secs > 0 ? `Retrying in ${secs} s` : "Retrying"}
      {text ? ` (${text})…` : "…"}
    </div>
  );
}

/**
 * The session's error (with Retry), the retry countdown, or what a revert or
 * rewind did, above the prompt. A failed call outside the session is shown by
 * AppErrorBanner, in every view.
 */
export default function ErrorBanner() {
  const c = useController();
  const error = useApp((s) => s.session?.error ?? null);
  const retry = useApp((s) => s.session?.retry ?? null);
  const turn = useApp((s) => s.session?.turn ?? "idle");
  const notice = useApp((s) => s.notice);
  const tone = useApp((s) => s.noticeTone ?? "done");
  const restoring = useApp((s) => s.restore.phase === "running");

  return (
    <>
      {retry && <Countdown until={retry.until} text={retry.text} />}
      {error && (
        <div className="error-banner" role="alert" data-testid="error-banner" data-kind={error.kind}>
          <span className="error-text">{error.message}</span>
          <button type="button" className="small" onClick={() => void c.chat.retry()} disabled={turn !== "idle"}>
            Retry
          </button>
        </div>
      )}
      {restoring && (
        <div className="retry-banner" role="status" data-testid="restoring">
          <span className="spinner" aria-hidden="true" />
          Restoring files…
        </div>
      )}
      {notice && (
        <div className="notice-banner" role="status" data-testid="notice-banner" data-tone={tone}>
          <span className="notice-icon" aria-hidden="true">
            {tone === "done" ? "✓" : "ℹ"}
          </span>
          <span className="error-text">{notice}</span>
          <button type="button" className="small" onClick={() => c.ledger.dismissNotice()}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
