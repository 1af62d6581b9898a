import type { DiffLayout } from "./DiffTable";

export type LayoutChoice = "auto" | DiffLayout;

const names: Record<DiffLayout, string> = { split: "side by side", unified: "unified" };

/** Auto (what fits the width), side by side, or unified. */
export default function LayoutToggle({ choice, auto, onChange }: { choice: LayoutChoice; auto: DiffLayout; onChange: (c: LayoutChoice) => void }) {
  return (
    <div className="layout-toggle" role="radiogroup" aria-label="Diff layout">
      {(["auto", "split", "unified"] as const).map((k) => (
        <button key={k} type="button" role="radio" aria-checked={choice === k} className={`seg${choice === k ? " on" : ""}`} onClick={() => onChange(k)}>
          {k === "auto" ? `Auto (${names[auto]})` : k === "split" ? "Side by side" : "Unified"}
        </button>
      ))}
    </div>
  );
}
