import type { LedgerFile } from "../../lib/wire.gen";

const kindText: Record<LedgerFile["kind"], string> = { created: "created", modified: "modified", deleted: "deleted", "": "unchanged" };

/** A file's net change in the session: created, modified, deleted, or back to how it was. */
export default function KindBadge({ kind }: { kind: LedgerFile["kind"] }) {
  return <span className={`badge op-${kind || "none"}`}>{kindText[kind]}</span>;
}
