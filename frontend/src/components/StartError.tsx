import { useBackend } from "../lib/backend";

/**
 * What the window shows when Pilot could not open its data (the database
 * or the change ledger under PILOT_HOME): why, what to do, and Quit. No
 * other part of the window is shown, since none of it could work.
 */
export default function StartError({ message }: { message: string }) {
  const backend = useBackend();
  return (
    <main className="start-error" role="alert" data-testid="start-error">
      <h1>Pilot could not start</h1>
      <p data-testid="start-error-message">{message}</p>
      <p className="hint">The full error is in logs/pilot.log under the data folder.</p>
      <button type="button" className="primary" data-testid="start-error-quit" onClick={() => void backend.quitNow()}>
        Quit
      </button>
    </main>
  );
}
