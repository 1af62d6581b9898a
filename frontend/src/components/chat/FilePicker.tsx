import { useEffect, useState } from "react";
import { useController } from "../../state/context";
import { useViewRoot } from "../useViewRoot";
import { useDebounced } from "../../lib/useDebounced";
import type { MCPResource } from "../../lib/wire.gen";

interface Props {
  projectId: number;
  query: string;
  active: number;
  onResults: (paths: string[]) => void;
  onPick: (path: string) => void;
}

/** "mcp:<server>:<uri>": the attachment that names an MCP resource. */
export const resourceRef = (r: MCPResource) => `mcp:${r.server}:${r.uri}`;

/**
 * The @ file picker: fuzzy matches from findFiles in the folder the open
 * session works in (its worktree, or the project folder), best first, then
 * the MCP resources that match.
 */
export default function FilePicker({ projectId, query, active, onResults, onPick }: Props) {
  const c = useController();
  const q = useDebounced(query, 80);
  const [paths, setPaths] = useState<string[] | null>(null);
  const [resources, setResources] = useState<MCPResource[]>([]);
  const { sessionId } = useViewRoot();

  useEffect(() => {
    let live = true;
    Promise.all([c.backend.findFiles(projectId, sessionId, q, 12).catch(() => [] as string[]), c.backend.findMcpResources(q, 8).catch(() => [] as MCPResource[])]).then(
      ([files, res]) => {
        if (!live) return;
        setPaths(files);
        setResources(res);
        onResults([...files, ...res.map(resourceRef)]);
      },
    );
    return () => {
      live = false;
    };
  }, [c, projectId, sessionId, q, onResults]);

  return (
    <div className="file-picker" role="listbox" id="file-picker" aria-label="Attach a file" data-testid="file-picker">
      {paths === null && <div className="picker-empty">Searching…</div>}
      {paths?.length === 0 && resources.length === 0 && <div className="picker-empty">No file matches “{query}”.</div>}
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
      {resources.map((r, j) => {
        const i = (paths?.length ?? 0) + j;
        return (
          <div
            key={resourceRef(r)}
            id={`pick-${i}`}
            role="option"
            aria-selected={i === active}
            className={`picker-item${i === active ? " active" : ""}`}
            data-testid="file-picker-item"
            data-kind="mcp-resource"
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(resourceRef(r));
            }}
          >
            <span className="picker-name">{r.name || r.uri}</span>
            <span className="picker-dir">
              MCP {r.server} · {r.uri}
            </span>
          </div>
        );
      })}
    </div>
  );
}
