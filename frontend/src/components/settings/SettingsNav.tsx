import { useCallback, useEffect, useState, type ReactNode, type RefObject } from "react";

/**
 * Settings' sections, in the order of the side index. The ids are the
 * data-section values of settings-nav-item and settings-section, which
 * tests outside this repository use (docs/CLI.md): never rename one.
 */
export type SectionId = "provider" | "models" | "approvals" | "sandbox" | "mcp" | "setup" | "languages" | "web" | "notifications" | "helpers" | "about";

export const sectionTitle: Record<SectionId, string> = {
  provider: "Provider & model",
  models: "Models",
  approvals: "Approvals & rules",
  sandbox: "Sandbox",
  mcp: "MCP servers",
  setup: "Setup",
  languages: "Languages",
  web: "Web",
  notifications: "Notifications",
  helpers: "Helpers",
  about: "About",
};

/** One section of Settings: its heading and what it holds (nothing shown while it holds nothing). */
export function Section({ id, children }: { id: SectionId; children?: ReactNode }) {
  if (children == null) return <section className="settings-section" id={`settings-${id}`} data-testid="settings-section" data-section={id} hidden />;
  return (
    <section className="settings-section" id={`settings-${id}`} data-testid="settings-section" data-section={id} aria-labelledby={`settings-${id}-title`}>
      <h3 id={`settings-${id}-title`} tabIndex={-1}>{sectionTitle[id]}</h3>
      {children}
    </section>
  );
}

/** Scrolls a section to the top of the list and puts the focus on its heading. */
function show(id: SectionId) {
  const el = document.getElementById(`settings-${id}`);
  el?.scrollIntoView?.({ block: "start" });
  el?.querySelector<HTMLElement>("h3")?.focus({ preventScroll: true });
}

/**
 * The side index: one entry per section that has content, each scrolling
 * its section into view; the entry of the section in view is marked.
 * Settings opens at start when given (the status bar's way to Models).
 */
export function SettingsNav({ sections, scroller, start }: { sections: SectionId[]; scroller: RefObject<HTMLElement | null>; start?: SectionId }) {
  const [current, setCurrent] = useState<SectionId>(start ?? sections[0] ?? "provider");
  useEffect(() => {
    if (start) show(start);
  }, [start]);

  // The section in view: the last one that starts at the top of the list
  // or above it (where a click on its entry scrolls it to).
  const track = useCallback(() => {
    const box = scroller.current;
    if (!box) return;
    const top = box.getBoundingClientRect().top + 32;
    let seen: SectionId | undefined;
    for (const id of sections) {
      const el = document.getElementById(`settings-${id}`);
      if (el && el.getBoundingClientRect().top <= top) seen = id;
    }
    if (seen) setCurrent(seen);
  }, [scroller, sections]);
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    box.addEventListener("scroll", track, { passive: true });
    return () => box.removeEventListener("scroll", track);
  }, [scroller, track]);

  const go = (id: SectionId) => {
    setCurrent(id);
    show(id);
  };

  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <ul>
        {sections.map((id) => (
          <li key={id}>
            <button
              type="button"
              className={id === current ? "current" : undefined}
              data-testid="settings-nav-item"
              data-section={id}
              aria-current={id === current ? "location" : undefined}
              onClick={() => go(id)}
            >
              {sectionTitle[id]}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
