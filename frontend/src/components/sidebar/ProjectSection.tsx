import { useState, type FormEvent } from "react";
import { useApp, useController } from "../../state/context";

export default function ProjectSection() {
  const c = useController();
  const projects = useApp((s) => s.projects);
  const current = useApp((s) => s.project);
  const [path, setPath] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!path.trim()) return;
    setBusy(true);
    const ok = await c.openProject(path);
    setBusy(false);
    if (ok) setPath("");
  };

  return (
    <section className="sidebar-section" aria-labelledby="projects-h">
      <div className="section-head">
        <h2 id="projects-h">Projects</h2>
        <button type="button" className="small" data-testid="project-open" onClick={() => void c.pickProject()}>
          Open folder…
        </button>
      </div>
      <form className="path-form" onSubmit={submit}>
        <input
          data-testid="project-path"
          type="text"
          value={path}
          placeholder="/path/to/project"
          aria-label="Project folder path"
          spellCheck={false}
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" className="small" disabled={busy || !path.trim()}>
          Open
        </button>
      </form>
      {projects.length === 0 ? (
        <p className="empty">No project yet: open a folder to start.</p>
      ) : (
        <ul className="project-list" data-testid="project-list" aria-label="Recent projects">
          {projects.map((p) => (
            <li key={p.id} data-testid="project-item" data-path={p.path}>
              <button
                type="button"
                className={`list-button${current?.id === p.id ? " active" : ""}`}
                aria-current={current?.id === p.id ? "true" : undefined}
                title={p.path}
                onClick={() => void c.openProject(p.path)}
              >
                <span className="item-title">{p.name || p.path}</span>
                <span className="item-sub">{p.path}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
