// Issue 28, point 6: a rewind's conflict shows the two versions as a
// highlighted diff that stays usable for a long file, and says its choices
// in the user's words.
import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import { renderWith } from "../../test/render";
import RestoreDialogs from "../changes/RestoreDialogs";
import type { Conflict, FileDiff, Hunk } from "../../lib/wire.gen";
import type { RestoreRequest } from "../../state/ledgerState";

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1));

/**
 * A 400-line file the user changed in 40 places (every tenth line) since
 * Pilot wrote it; going back would undo those. The hunks: 3 lines of
 * context either side of each changed line, as the backend's diff makes them.
 */
function longConflict(): Conflict {
  const mineLines = lines(400, (i) => (i % 10 === 5 ? `const value${i} = computeTheUsersVersion(${i}); // edited by hand` : `const value${i} = compute(${i});`));
  const earlierLines = lines(400, (i) => `const value${i} = compute(${i});`);
  const hunks: Hunk[] = [];
  for (let k = 0; k < 40; k++) {
    const at = k * 10 + 5;
    const ctx = (n: number) => ({ kind: "context" as const, text: earlierLines[n - 1]!, oldNo: n, newNo: n });
    hunks.push({
      index: k,
      oldStart: at - 3,
      oldLines: 7,
      newStart: at - 3,
      newLines: 7,
      lines: [ctx(at - 3), ctx(at - 2), ctx(at - 1), { kind: "del", text: mineLines[at - 1]!, oldNo: at }, { kind: "add", text: earlierLines[at - 1]!, newNo: at }, ctx(at + 1), ctx(at + 2), ctx(at + 3)],
    });
  }
  const text = (l: string[]) => l.join("\n") + "\n";
  const checkpoint: FileDiff = { path: "values.ts", oldExists: true, newExists: true, oldText: text(mineLines), newText: text(earlierLines), binary: false, hunks };
  const mine: FileDiff = { path: "values.ts", oldExists: true, newExists: true, oldText: text(earlierLines), newText: text(mineLines), binary: false, hunks: [] };
  return { path: "values.ts", mine, checkpoint };
}

function show(request: RestoreRequest, conflicts: Conflict[]) {
  const r = renderWith(<RestoreDialogs />);
  r.controller.store.setState((st) => ({ ...st, restore: { phase: "conflicts", request, conflicts, resolutions: {} } }));
  return r;
}

describe("the rewind conflict", () => {
  it("shows a 400-line file's two versions as a highlighted diff of the places that differ, the unchanged lines folded and far hunks not drawn", async () => {
    show({ kind: "rewind", sessionId: 1, messageId: 3, mode: "code" }, [longConflict()]);
    const cf = await screen.findByTestId("rewind-conflict");
    expect(cf.textContent).toContain("40 places differ; unchanged lines are folded. − 40 lines only in yours + 40 lines only in the earlier version");
    const hunks = within(cf).getAllByTestId("readonly-hunk");
    expect(hunks.length).toBeGreaterThan(0);
    expect(hunks.length).toBeLessThan(40); // only those near the view
    const rows = cf.querySelectorAll("tr");
    expect(rows.length).toBeLessThan(200); // never the 400 lines, let alone both copies
    // The user's line and the earlier one, highlighted down to the characters that differ.
    const del = cf.querySelector("td.code.del")!;
    const add = cf.querySelector("td.code.add")!;
    expect(del.textContent).toContain("computeTheUsersVersion(5)");
    expect(add.textContent).toContain("compute(5)");
    expect(del.querySelector("mark.intra")?.textContent).toContain("TheUsersVersion");
    expect(cf.textContent).toContain("Yours, on disk now");
    expect(cf.textContent).toContain("Before this message");
  });

  it("words the choices for users, not in the ledger's terms", async () => {
    const r = show({ kind: "rewind", sessionId: 1, messageId: 3, mode: "code" }, [longConflict()]);
    const cf = await screen.findByTestId("rewind-conflict");
    expect(within(cf).getByTestId("rewind-keep-mine").textContent).toBe("Keep my current file");
    expect(within(cf).getByTestId("rewind-take-checkpoint").textContent).toBe("Use the version from before this message");
    expect(screen.getByTestId("restore-conflicts").textContent).not.toMatch(/checkpoint/i);
    fireEvent.click(within(cf).getByTestId("rewind-take-checkpoint"));
    expect(r.backend.callsOf("rewind")).toEqual([[1, 3, "code", { resolutions: { "values.ts": "checkpoint" } }]]);
  });

  it("names the earlier version after what is undone: a change, or the session", async () => {
    show({ kind: "checkpoint", sessionId: 1, checkpointId: 7 }, [longConflict()]);
    expect((await screen.findByTestId("rewind-take-checkpoint")).textContent).toBe("Use the version from before this change");
  });
});
