import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import App from "./App";
import { BackendContext } from "./lib/backend";
import { wailsBackend } from "./lib/wailsBackend";
import { boot } from "./state/boot";
// The styles of the first screen; a part loaded later brings its own (plan.css, elicitation.css).
import "./styles.css";
import "./ledger.css";
import "./helpers.css";
import "./sandbox.css";
import "./hooks.css";
import "./git.css";
import "./livestate.css";
import "./inbox.css";
import "./jobs.css";
import "./comments.css";
import "./models.css";
import "./memory.css";

// The first call goes out before React renders the shell (state/boot.ts).
const started = boot(wailsBackend);
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <BackendContext.Provider value={wailsBackend}>
      <App boot={started} />
    </BackendContext.Provider>
  </StrictMode>,
);
