import { useEffect, useState } from "react";

/** "4 s", "2 min 05 s", "1 h 03 min": how long a job ran. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** How long a job has run: counting each second while it runs, fixed once it ended. */
export default function Elapsed({ startedAt, endedAt }: { startedAt: number; endedAt?: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endedAt) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [endedAt]);
  return (
    <span className="job-elapsed" title="How long it ran">
      {formatElapsed((endedAt || now) - startedAt)}
    </span>
  );
}
