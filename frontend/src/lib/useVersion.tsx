import { useBackend, type VersionInfo } from "./backend";
import { useRead } from "./useRead";

/** The running Pilot's version, read once from the backend: the info, or why it could not be read. */
export function useVersion(): { info: VersionInfo | null; error: string | null } {
  const backend = useBackend();
  const { value: info, error } = useRead(() => backend.version(), [backend]);
  return { info, error };
}

/** The version's facts as the About dialog and Settings › About list them. */
export function VersionFacts({ info, testIds = false }: { info: VersionInfo; testIds?: boolean }) {
  return (
    <>
      <dt>Version</dt>
      <dd data-testid={testIds ? "about-version" : undefined}>{info.version}</dd>
      <dt>Commit</dt>
      <dd>{info.commit}</dd>
      <dt>Wails</dt>
      <dd data-testid={testIds ? "about-wails" : undefined}>{info.wails}</dd>
      <dt>Go</dt>
      <dd>
        {info.go} {info.os}/{info.arch}
      </dd>
    </>
  );
}
