import { useEffect, useState } from "react";
import type { VersionInfo } from "../../lib/backend";
import { useController } from "../../state/context";
import { errorText } from "../../lib/format";

/** Settings › About: the version of Pilot and what it was built with. */
export default function AboutSection() {
  const backend = useController().backend;
  const [info, setInfo] = useState<VersionInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    backend
      .version()
      .then((v) => live && setInfo(v))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [backend]);
  if (error) return <p className="error">Could not read the version: {error}</p>;
  if (!info) return <p className="muted">Reading the version…</p>;
  return (
    <dl className="about-grid" data-testid="settings-about">
      <dt>Version</dt>
      <dd>{info.version}</dd>
      <dt>Commit</dt>
      <dd>{info.commit}</dd>
      <dt>Wails</dt>
      <dd>{info.wails}</dd>
      <dt>Go</dt>
      <dd>
        {info.go} {info.os}/{info.arch}
      </dd>
    </dl>
  );
}
