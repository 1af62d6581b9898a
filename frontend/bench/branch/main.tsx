// The Branch view of a 12-file and a 200-file branch in the window as
// built for production, on the fake backend: bench/branch/run.mjs opens
// them in Chromium and times the view painted.
import { createRoot } from "react-dom/client";
import App from "../../src/App";
import { BackendContext } from "../../src/lib/backend";
import { detail, FakeBackend, summary } from "../../src/test/fakeBackend";
import { changedFile } from "../../src/test/fakeGit";
import "../../src/styles.css";
import "../../src/ledger.css";
import "../../src/plan.css";
import "../../src/helpers.css";
import "../../src/sandbox.css";
import "../../src/git.css";

const b = new FakeBackend();
/** A branch of n files, three one-line hunks each. */
const branchOf = (sessionId: number, n: number) => ({
  sessionId,
  branch: `pilot/b${sessionId}`,
  base: "abc1234",
  worktree: `/w/b${sessionId}`,
  files: Array.from({ length: n }, (_, i) =>
    changedFile(`src/pkg${Math.floor(i / 10)}/file${i}.go`, [
      [`const a${i} = 1`, `const a${i} = 2`],
      [`func f${i}() {}`, `func f${i}() { g() }`],
      [`// old ${i}`, `// new ${i}`],
    ]),
  ),
});
const s1 = summary(1, { title: "Big", branch: "pilot/b1", worktree: "/w/b1" });
const s2 = summary(2, { title: "Small", branch: "pilot/b2", worktree: "/w/b2" });
b.sessions = [s1, s2];
b.details[1] = detail(1, { session: s1 });
b.details[2] = detail(2, { session: s2 });
b.git.branches[1] = branchOf(1, 200);
b.git.branches[2] = branchOf(2, 12);
createRoot(document.getElementById("root")!).render(
  <BackendContext.Provider value={b}>
    <App />
  </BackendContext.Provider>,
);
