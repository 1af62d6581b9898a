import { useState } from "react";
import type { HookDecision, HookRun } from "../../lib/wire.gen";
import { visibleString } from "../../lib/visible";
import Visible from "../Visible";

const decisionText: Record<HookDecision, string> = {
  allow: "allowed",
  deny: "blocked",
  ask: "asked you",
  none: "ran",
  error: "failed",
};

/** A hook's command, short enough for one line: its last path parts. */
export function hookName(command: string): string {
  const first = command.trim().split(/\s+/).slice(0, 3).join(" ");
  const short = first.replace(/(^|\s)(?:\/[^\s/]+)+\/([^\s/]+)/g, "$1…/$2");
  return short.length > 60 ? `${short.slice(0, 57)}…` : short;
}

/** One of a hook's output streams, under its name; nothing when it printed nothing there. */
function Stream({ name, text }: { name: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <>
      <span className="hook-stream">{name}</span>
      <pre className="hook-pre">
        <Visible text={text} lines />
      </pre>
    </>
  );
}

/** What one hook printed, and the sentence on what came of it. */
function Printed({ run }: { run: HookRun }) {
  return (
    <div className="hook-printed" data-testid="hook-output">
      <p className="hook-file">
        <code>
          <Visible text={run.hook} />
        </code>{" "}
        from <Visible text={run.file} />
        {run.exitCode !== 0 && !run.timedOut && ` · exit code ${run.exitCode}`}
      </p>
      {run.message && run.message !== run.stderr?.trim() && (
        <p className="hook-message">
          <Visible text={run.message} lines />
        </p>
      )}
      <Stream name="stdout" text={run.stdout} />
      <Stream name="stderr" text={run.stderr} />
      {!run.stdout && !run.stderr && <p className="hook-message">It printed nothing.</p>}
    </div>
  );
}

/** One hook run: event, which hook, what it decided, how long; expands to what it printed. */
function HookRunRow({ run }: { run: HookRun }) {
  const [open, setOpen] = useState(false);
  return (
    <li
      className={`hook-run decision-${run.decision}`}
      data-testid="hook-run"
      data-event={run.event}
      data-decision={run.decision}
      data-hook={run.hook}
      data-ms={run.ms}
    >
      <button type="button" className="hook-head" aria-expanded={open} onClick={() => setOpen(!open)} title={visibleString(run.message || run.hook, true)}>
        <span className="hook-event">{run.event}</span> <span className="hook-name">
          <Visible text={hookName(run.hook)} />
        </span>{" "}
        <span className="hook-decision">{run.timedOut ? "timed out" : decisionText[run.decision]}</span>{" "}
        <span className="hook-ms">{run.ms.toLocaleString("en-US")} ms</span>
      </button>
      {open && <Printed run={run} />}
    </li>
  );
}

/** The settings.json hooks that ran for a tool call, in order. */
export default function HookRuns({ runs }: { runs: HookRun[] }) {
  return (
    <ul className="hook-runs" aria-label="Hooks that ran for this call">
      {runs.map((r, i) => (
        <HookRunRow key={i} run={r} />
      ))}
    </ul>
  );
}
