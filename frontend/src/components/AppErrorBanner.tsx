import { useApp, useController } from "../state/context";

/**
 * A failed call outside any session (opening a folder, listing projects,
 * starting a session...), shown over whatever view is open, the first screen
 * and the settings included, until dismissed.
 */
export default function AppErrorBanner() {
  const c = useController();
  const appError = useApp((s) => s.appError);
  if (!appError) return null;
  return (
    <div className="app-error" role="alert" data-testid="error-banner" data-kind="app">
      <span className="error-text">{appError}</span>
      <button type="button" className="small" onClick={() => c.dismissAppError()}>
        Dismiss
      </button>
    </div>
  );
}
