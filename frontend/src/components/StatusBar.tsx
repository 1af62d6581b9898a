import type { AppReadyPayload } from "../lib/events";

interface Props {
  ready: AppReadyPayload | null;
  onAbout: () => void;
}

export default function StatusBar({ ready, onAbout }: Props) {
  return (
    <footer className="statusbar">
      <span data-testid="agent-state" data-state="idle" className="state">
        idle
      </span>
      <span className="spacer" />
      {ready && (
        <span className="startup" data-testid="startup-time" title="Time from launch to the first call from the window">
          ready in {ready.startupMs} ms
        </span>
      )}
      <button type="button" className="link" data-testid="about-open" onClick={onAbout}>
        About
      </button>
    </footer>
  );
}
