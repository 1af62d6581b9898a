import ProjectSection from "./ProjectSection";
import SessionSection from "./SessionSection";

export default function Sidebar() {
  return (
    <aside className="sidebar" aria-label="Projects and sessions">
      <header className="brand">
        <span className="brand-mark" aria-hidden="true">
          P
        </span>
        <span className="brand-name">Pilot</span>
      </header>
      <ProjectSection />
      <SessionSection />
    </aside>
  );
}
