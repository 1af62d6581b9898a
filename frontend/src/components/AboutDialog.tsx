import { useEffect, useRef } from "react";
import { useReportError } from "../lib/useReportError";
import { useVersion, VersionFacts } from "../lib/useVersion";

interface Props {
  onClose: () => void;
}

export default function AboutDialog({ onClose }: Props) {
  const { info, error } = useVersion();
  useReportError("about", error && `Could not read the version: ${error}`);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);

  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="about-title"
        data-testid="about-dialog"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === "Escape" && onClose()}
      >
        <h2 id="about-title">About Pilot</h2>
        {error && <p className="error">Could not read the version: {error}</p>}
        {info ? (
          <dl className="about-grid">
            <VersionFacts info={info} testIds />
          </dl>
        ) : (
          !error && <p>Loading…</p>
        )}
        <div className="modal-actions">
          <button type="button" ref={closeRef} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
