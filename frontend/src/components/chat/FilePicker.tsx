import { useEffect, useState } from "react";
import { useController } from "../../state/context";
import { useDebounced } from "../../lib/useDebounced";

interface Props {
  projectId: number;
  query: string;
  active: number;
  onResults: (paths: string[]) => void;
  onPick: (path: string) => void;
}

/** The @ file picker: fuzzy matches from findFiles, best first. */
export default function FilePicker({ projectId, query, active, onResults, onPick }: Props) {
  const c = useController();
  const q = useDebounced(query, 80);
  const [paths, setPaths] = useState<string[] | null>(null);

  useEffect(() => {
    let live = true;
    c.backend
      .findFiles(projectId, q, 12)
      .then((r) => {
        if (!live) return;
        setPaths(r);
        onResults(r);
      })
      .catch(() => {
        if (!live) return;
        setPaths([]);
        onResults([]);
      });
    return () => {
      live = false;
    };
  }, [c, projectId, q, onResults]);

  return (
    <div className="file-picker" role="listbox" id="file-picker" aria-label="Attach a file" data-testid="file-picker">
      {paths === null && <div className="picker-empty">Searching…</div>}
      {paths?.length === 0 && <div className="picker-empty">No file matches “{query}”.</div>}
      {paths?.map((p, i) => {
        const slash = p.lastIndexOf("/");
        return (
          <div
            key={p}
            id={`pick-${i}`}
            role="option"
            aria-selected={i === active}
            className={`picker-item${i === active ? " active" : ""}`}
            data-testid="file-picker-item"
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(p);
            }}
          >
            <span className="picker-name">{p.slice(slash + 1)}</span>
            {slash > 0 && <span className="picker-dir">{p.slice(0, slash)}</span>}
          </div>
        );
      })}
    </div>
  );
}
