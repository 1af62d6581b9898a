import { useState } from "react";
import type { TodoStatus } from "../../lib/wire.gen";
import { useApp } from "../../state/context";
import "../../plan.css";

const icon: Record<TodoStatus, string> = { pending: "○", in_progress: "◐", done: "✓" };
const said: Record<TodoStatus, string> = { pending: "to do", in_progress: "in progress", done: "done" };

/**
 * The agent's task list, live above the prompt box. A task the agent left
 * "in progress" is shown in progress only while a turn runs: once the turn
 * ended, nobody works on it, so it reads "stopped when the turn ended" (the
 * item keeps the status the agent gave it in data-status, and the next turn
 * picks it up from there).
 */
export default function TodoList() {
  const todos = useApp((s) => s.session?.todos);
  const running = useApp((s) => (s.session?.turn ?? "idle") !== "idle");
  const [folded, setFolded] = useState(false);
  if (!todos || todos.length === 0) return null;
  const done = todos.filter((t) => t.status === "done").length;
  const current = running ? todos.find((t) => t.status === "in_progress") : undefined;
  return (
    <section className="todo-list" data-testid="todo-list" aria-label="Tasks">
      <button type="button" className="todo-head" aria-expanded={!folded} onClick={() => setFolded(!folded)}>
        <span className="todo-title">
          Tasks {done}/{todos.length}
        </span>
        {folded && current && <span className="todo-current">{current.content}</span>}
        <span className="chevron" aria-hidden="true">
          {folded ? "▸" : "▾"}
        </span>
      </button>
      {!folded && (
        <ol className="todo-items">
          {todos.map((t, i) => {
            const stopped = t.status === "in_progress" && !running;
            return (
              <li key={i} className={`todo-item todo-${stopped ? "stopped" : t.status}`} data-testid="todo-item" data-status={t.status} data-stopped={stopped ? "true" : undefined}>
                <span className="todo-icon" aria-hidden="true">
                  {stopped ? "◌" : icon[t.status]}
                </span>
                <span className="todo-content">{t.content}</span>
                {stopped ? <span className="todo-note"> (stopped when the turn ended)</span> : <span className="sr-only"> ({said[t.status]})</span>}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
