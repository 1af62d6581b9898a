import { useEffect, useState } from "react";
import type { MCPServer, MCPSignInEnded, ToolCall } from "../../lib/wire.gen";
import { errorText } from "../../lib/format";
import { useApp, useController } from "../../state/context";
import FormNote from "../FormNote";
import Visible from "../Visible";
import { watchServers } from "./watchServers";

/** Where a sign-in the window started is: not started, waiting for the browser (the authorization page's address once known), ended, or refused at the start. */
type Flow = { kind: "idle" } | { kind: "waiting"; address: string } | { kind: "ended"; end: MCPSignInEnded } | { kind: "refused"; error: string };

/**
 * The sign-in of the MCP server named server: start opens the browser on
 * its authorization page (the backend does, through $BROWSER or
 * xdg-open) and the flow waits until the backend says it ended
 * (mcp:updated with signIn); cancel abandons it. No token ever crosses
 * to the window: only the address of the page and how it ended.
 */
function useSignIn(server: string) {
  const c = useController();
  const [flow, setFlow] = useState<Flow>({ kind: "idle" });
  useEffect(
    () =>
      c.backend.on("mcp:updated", (p) => {
        if (p.signIn?.server === server) setFlow({ kind: "ended", end: p.signIn });
      }),
    [c, server],
  );
  const start = async () => {
    setFlow({ kind: "waiting", address: "" });
    try {
      const s = await c.backend.mcpSignIn(server);
      setFlow((f) => (f.kind === "waiting" ? { kind: "waiting", address: s.address } : f)); // it may have ended already
    } catch (err) {
      setFlow({ kind: "refused", error: errorText(err) });
    }
  };
  const cancel = () => {
    c.backend.mcpCancelSignIn(server).catch((err: unknown) => setFlow({ kind: "refused", error: errorText(err) }));
  };
  return { flow, start, cancel };
}

/** What the flow is doing, in a sentence: waiting (with the page's address and Cancel) or how it ended. */
function FlowNote({ flow, cancel }: { flow: Flow; cancel: () => void }) {
  switch (flow.kind) {
    case "idle":
      return null;
    case "refused":
      return <FormNote text={`Could not start the sign-in: ${flow.error}`} testId="mcp-signin-note" />;
    case "waiting":
      return (
        <div className="mcp-signin-wait" role="status" data-testid="mcp-signin-note">
          <span>Waiting for the browser… Sign in on the server's page there; Pilot goes on when the page sends you back.</span>
          {flow.address && (
            <span className="muted small-text">
              {" "}
              If no browser opened, open this address yourself:{" "}
              <code className="mcp-signin-address" data-testid="mcp-signin-address">
                <Visible text={flow.address} />
              </code>
            </span>
          )}{" "}
          <button type="button" className="small" data-testid="mcp-signin-cancel" onClick={cancel}>
            Cancel
          </button>
        </div>
      );
  }
  const { end } = flow;
  if (end.cancelled) return <FormNote text="Sign-in cancelled: nothing was kept. Sign in again when you are ready." kind="done" testId="mcp-signin-note" />;
  if (end.error) return <FormNote text={`Not signed in: ${end.error}`} testId="mcp-signin-note" />;
  return <FormNote text="Signed in." kind="done" testId="mcp-signin-note" />;
}

/** The Sign in button of a server: data-server names it (the test id other tests rely on). */
function SignInButton({ server, flow, start }: { server: string; flow: Flow; start: () => Promise<void> }) {
  return (
    <button type="button" className="small primary" data-testid="mcp-signin" data-server={server} disabled={flow.kind === "waiting"} onClick={() => void start()}>
      Sign in
    </button>
  );
}

/**
 * The sign-in part of a server's Settings row (HTTP servers only): when
 * it needs a sign-in, why in the backend's words (never signed in,
 * expired or revoked, more access) and "Sign in"; when signed in, the
 * sign-in in words and "Sign out".
 */
export function ServerSignIn({ s }: { s: MCPServer }) {
  const c = useController();
  const { flow, start, cancel } = useSignIn(s.name);
  const [error, setError] = useState<string | null>(null);
  if (s.transport !== "http" || (!s.signIn && flow.kind === "idle")) return null;
  const signOut = () => {
    c.backend.mcpSignOut(s.name).then(
      () => setError(null),
      (err: unknown) => setError(errorText(err)),
    );
  };
  return (
    <div className="mcp-signin" data-testid="mcp-signin-row" data-server={s.name} data-needs={s.needsSignIn ? "true" : undefined}>
      {s.needsSignIn ? (
        <>
          <span className="mcp-signin-why">
            Sign-in needed: the server <Visible text={s.signInWhy || "needs a sign-in"} />.
          </span>{" "}
          <SignInButton server={s.name} flow={flow} start={start} />
        </>
      ) : (
        s.signIn && (
          <>
            <span className="muted small-text">
              <Visible text={s.signIn} />
            </span>{" "}
            <button type="button" className="small" data-testid="mcp-signout" data-server={s.name} onClick={signOut}>
              Sign out
            </button>
          </>
        )
      )}
      <FlowNote flow={flow} cancel={cancel} />
      <FormNote text={error} />
    </div>
  );
}

/** The server's row as Settings shows it, read again whenever the servers change; null until read or when it is not configured. */
function useServer(name: string): MCPServer | null {
  const c = useController();
  const [s, setS] = useState<MCPServer | null>(null);
  useEffect(() => watchServers(c.backend, (l) => setS(l.servers.find((x) => x.name === name) ?? null)), [c, name]);
  return s;
}

/**
 * On the card of a call the server refused for want of a sign-in
 * (call.needsSignIn, set by the backend from the typed error): "Sign in",
 * then, once the server runs signed in, "Retry", which makes the same call
 * again as a turn of its own (judged again; the model reads its result).
 */
export function CallSignIn({ call }: { call: ToolCall }) {
  const c = useController();
  const server = call.needsSignIn ?? "";
  const sessionId = useApp((st) => st.session?.id ?? null);
  const running = useApp((st) => (st.session?.turn ?? "idle") !== "idle");
  const row = useServer(server);
  const { flow, start, cancel } = useSignIn(server);
  const [retry, setRetry] = useState<{ done: boolean; error: string | null }>({ done: false, error: null });
  const signedIn = row !== null && !row.needsSignIn && row.state === "ready";
  const doRetry = () => {
    if (sessionId === null) return;
    c.backend.retryToolCall(sessionId, call.id).then(
      () => setRetry({ done: true, error: null }),
      (err: unknown) => setRetry({ done: false, error: errorText(err) }),
    );
  };
  return (
    <div className="tool-signin" data-testid="tool-signin" data-server={server}>
      {!signedIn ? (
        <p>
          <span>
            The MCP server <Visible text={server} /> needs you to sign in before this call can work{row?.signInWhy ? " (it " : ""}
            {row?.signInWhy && <Visible text={row.signInWhy} />}
            {row?.signInWhy ? ")" : ""}. The session goes on meanwhile.
          </span>{" "}
          <SignInButton server={server} flow={flow} start={start} />
        </p>
      ) : retry.done ? (
        <p className="muted small-text">Retried: the call runs again below.</p>
      ) : (
        <p>
          <span>
            Signed in to <Visible text={server} />.
          </span>{" "}
          <button
            type="button"
            className="small primary"
            data-testid="mcp-retry"
            disabled={running}
            title={running ? "Wait for the agent's turn to end, or stop it" : "Make the same call again (it is asked for like any call); the agent reads its result"}
            onClick={doRetry}
          >
            Retry
          </button>
        </p>
      )}
      <FlowNote flow={flow} cancel={cancel} />
      <FormNote text={retry.error} />
    </div>
  );
}
