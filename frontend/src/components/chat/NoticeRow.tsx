import type { TimelineNotice } from "../../state/sessionState";

const turnEnd: Record<string, string> = {
  cancelled: "You stopped the turn.",
  limit: "The turn stopped at the tool-call limit.",
  loop_guard: "The turn stopped: the model kept repeating the same call.",
  budget: "The turn stopped: the session reached its budget.",
  max_tokens: "The answer was cut off at the model's output limit.",
};

export default function NoticeRow({ notice }: { notice: TimelineNotice }) {
  if (notice.kind === "turn_end") {
    return (
      <div className="notice" data-testid="notice" data-kind={`turn_${notice.reason}`} role="note">
        {turnEnd[notice.reason] ?? `The turn ended (${notice.reason}).`}
      </div>
    );
  }
  return (
    <div className={`notice notice-${notice.noticeKind}`} data-testid="notice" data-kind={notice.noticeKind} role="note">
      {notice.noticeKind === "compacted" && <span aria-hidden="true">⇣ </span>}
      {notice.text}
    </div>
  );
}
