import { useVersion, VersionFacts } from "../../lib/useVersion";

/** Settings › About: the version of Pilot and what it was built with. */
export default function AboutSection() {
  const { info, error } = useVersion();
  if (error) return <p className="error">Could not read the version: {error}</p>;
  if (!info) return <p className="muted">Reading the version…</p>;
  return (
    <dl className="about-grid" data-testid="settings-about">
      <VersionFacts info={info} />
    </dl>
  );
}
