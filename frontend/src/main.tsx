import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import App from "./App";
import { BackendContext } from "./lib/backend";
import { wailsBackend } from "./lib/wailsBackend";
import "./styles.css";
import "./ledger.css";
import "./plan.css";
import "./helpers.css";
import "./sandbox.css";
import "./elicitation.css";
import "./hooks.css";
import "./git.css";
import "./livestate.css";
import "./inbox.css";
import "./jobs.css";
import "./comments.css";
import "./models.css";
import "./memory.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <BackendContext.Provider value={wailsBackend}>
      <App />
    </BackendContext.Provider>
  </StrictMode>,
);
