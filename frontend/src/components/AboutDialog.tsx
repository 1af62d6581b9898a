import { useEffect, useRef, useState } from "react";
import { useBackend, type VersionInfo } from "../lib/backend";
import { useReportError } from "../lib/useReportError";

interface Props {
  onClose: () => void;
}

export default function AboutDialog({ onClose }: Props) {
  const backend = useBackend();
  const [info, setInfo] = useState<VersionInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useReportError("about", error && `Could not read the version: ${error}`);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    backend
      .version()
      .then((v) => live && setInfo(v))
      .catch((err: unknown) => live && setError(String(err)));
    closeRef.current?.focus();
    return () => {
      live = false;
    };
  }, [backend]);

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
            <dt>Version</dt>
            <dd data-testid="about-version">{info.version}</dd>
            <dt>Commit</dt>
            <dd>{info.commit}</dd>
            <dt>Wails</dt>
            <dd data-testid="about-wails">{info.wails}</dd>
            <dt>Go</dt>
            <dd>
              {info.go} {info.os}/{info.arch}
            </dd>
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
