import type { Backend } from "../../lib/backend";
import type { MCPServers } from "../../lib/wire.gen";

/**
 * Calls seen with the open project's servers now and again after every
 * mcp:updated, until the returned function is called (an effect's
 * cleanup); a read that fails is skipped.
 */
export function watchServers(backend: Backend, seen: (l: MCPServers) => void): () => void {
  let live = true;
  const look = () => {
    backend.mcpServers().then(
      (l) => live && seen(l),
      () => undefined,
    );
  };
  look();
  const off = backend.on("mcp:updated", look);
  return () => {
    live = false;
    off();
  };
}
