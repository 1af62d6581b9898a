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
const mk = (id: number, n: number) => ({ sessionId: id, branch: "pilot/x", base: "abc1234", worktree: "/w/x", files: Array.from({ length: n }, (_, i) => changedFile(`src/pkg${Math.floor(i / 10)}/file${i}.go`, [[`const a${i} = 1`, `const a${i} = 2`], [`func f${i}() {}`, `func f${i}() { g() }`], [`// old ${i}`, `// new ${i}`]])) });
const s1 = summary(1, { title: "Big", branch: "pilot/x", worktree: "/w/x" });
const s2 = summary(2, { title: "Small", branch: "pilot/y", worktree: "/w/y" });
b.sessions = [s1, s2];
b.details[1] = detail(1, { session: s1 });
b.details[2] = detail(2, { session: s2 });
b.git.branches[1] = mk(1, 200);
b.git.branches[2] = mk(2, 12);
createRoot(document.getElementById("root")!).render(<BackendContext.Provider value={b}><App /></BackendContext.Provider>);
