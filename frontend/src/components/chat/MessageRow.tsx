import { Fragment, memo, useState } from "react";
import type { Message } from "../../lib/wire.gen";
import { useApp, useController } from "../../state/context";
import Icon from "../Icon";
import CitedSources, { answerParts } from "./CitedSources";
import LongText from "./LongText";
import Markdown from "../Markdown";
import MessageImage from "./MessageImage";
import RememberForm from "./RememberForm";
import ToolCallCard from "./ToolCallCard";

const noTools: string[] = [];

/** How the message that starts an approved plan's work reads in the transcript (the backend's workspace.ApprovedLine); the plan is on its card above. */
const planApproved = "Plan approved — switching to ";

/** How the message of a review of line comments reads in the transcript (the backend's service.ReviewLine); its comments are folded under it. */
const reviewSent = "Review — ";

/** How a note Pilot added to the user's message for the model starts (files the user reverted since). */
const pilotNote = "[Pilot] ";

function textOf(m: Message): string {
  return m.blocks
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("\n\n");
}

/** The text a message shows: a user's command as typed (not its expansion), without Pilot's notes. */
function shownText(m: Message): string {
  if (m.role !== "user") return textOf(m);
  return m.blocks
    .filter((b) => b.type === "text" && b.text && !(!b.command && b.text.startsWith(pilotNote)))
    .map((b) => b.command || b.text || "")
    .join("\n\n");
}

/** A message is shown unless it only carries tool results (those live in the cards). */
export function isVisible(m: Message | undefined): boolean {
  if (!m) return false;
  return m.role === "assistant" || m.blocks.some((b) => (b.type === "text" && b.text) || (b.type === "image" && b.hash));
}

function MessageRow({ id, highlighted }: { id: number; highlighted: boolean }) {
  const c = useController();
  const m = useApp((s) => s.session?.messages[id]);
  const toolIds = useApp((s) => s.session?.toolsByMessage[id] ?? noTools);
  const busy = useApp((s) => (s.session?.turn ?? "idle") !== "idle");
  const [copied, setCopied] = useState(false);
  const [remembering, setRemembering] = useState(false);
  if (!m) return null;

  const referenced = new Set(m.blocks.filter((b) => b.type === "tool_use" && b.id).map((b) => b.id));
  const extra = toolIds.filter((t) => !referenced.has(t));
  const copy = () => {
    void navigator.clipboard?.writeText(textOf(m)).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1200);
    });
  };

  return (
    <article
      className={`message role-${m.role}${highlighted ? " hit" : ""}${m.state === "streaming" ? " streaming" : ""}`}
      data-testid="message"
      data-role={m.role}
      data-message-id={m.id}
      data-state={m.state}
      aria-label={m.role === "user" ? "You" : "Assistant"}
    >
      <div className="message-body">
        {m.role === "user"
          ? m.blocks.map((b, i) =>
              b.type === "text" && b.text && b.command?.startsWith(planApproved) ? (
                <p key={i} className="user-text plan-approved" data-testid="plan-approved" title="The plan you approved, as shown on its card above, went to the model with this message">
                  {b.command}
                </p>
              ) : b.type === "text" && b.text && b.command ? (
                <div key={i} className="user-command" data-testid="user-command" data-command={b.command}>
                  <LongText text={b.command} className="user-text" />
                  <details className="command-expansion" data-testid="command-expansion">
                    <summary>{b.command.startsWith(reviewSent) ? "The comments, as the model read them" : "Expanded to the command's text"}</summary>
                    <LongText text={b.text} className="user-text" />
                  </details>
                </div>
              ) : b.type === "text" && b.text ? (
                <LongText key={i} text={b.text} className={b.text.startsWith(pilotNote) ? "user-text pilot-note" : "user-text"} />
              ) : b.type === "image" && b.hash ? (
                <MessageImage key={i} block={b} />
              ) : null,
            )
          : answerParts(m.blocks).map((p) => {
              if (p.kind === "text")
                return (
                  <Fragment key={p.index}>
                    <Markdown text={p.text} />
                    {p.sources.length ? <CitedSources sources={p.sources} /> : null}
                  </Fragment>
                );
              const b = p.block;
              if (b.type === "thinking")
                return b.text ? (
                  <details key={p.index} className="thinking">
                    <summary>Thinking</summary>
                    <div className="thinking-text">{b.text}</div>
                  </details>
                ) : null;
              if (b.type === "tool_use" && b.id) return <ToolCallCard key={b.id} id={b.id} />;
              return null;
            })}
        {extra.map((t) => (
          <ToolCallCard key={t} id={t} />
        ))}
        {m.state === "streaming" && m.blocks.length === 0 && <span className="typing" aria-label="Thinking">●●●</span>}
        {m.state === "interrupted" && <p className="interrupted">Stopped before the answer was complete.</p>}
      </div>
      {m.state !== "streaming" && (
        <div className="message-actions">
          <button type="button" className="icon" aria-label="Copy message" title="Copy" onClick={copy}>
            <Icon name={copied ? "check" : "copy"} />
          </button>
          <button
            type="button"
            className="icon"
            data-testid="message-fork"
            aria-label="Fork the session from this message"
            title="Fork from here"
            onClick={() => void c.sessions.fork(m.id)}
          >
            <Icon name="fork" />
          </button>
          <button
            type="button"
            className="icon"
            data-testid="memory-remember"
            aria-label="Remember this: propose it for AGENTS.md or your own instructions"
            aria-expanded={remembering}
            title="Remember…"
            onClick={() => setRemembering((r) => !r)}
          >
            <Icon name="remember" />
          </button>
          {m.role === "user" && (
            <button
              type="button"
              className="icon"
              data-testid="rewind"
              aria-label="Rewind to before this message"
              title={busy ? "Rewind to before this message (after the turn ends)" : "Rewind to before this message"}
              disabled={busy}
              onClick={() => c.ledger.chooseRewind(m.id)}
            >
              <Icon name="rewind" />
            </button>
          )}
        </div>
      )}
      {remembering && m.state !== "streaming" && <RememberForm text={shownText(m)} onClose={() => setRemembering(false)} />}
    </article>
  );
}

export default memo(MessageRow);
