import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend } from "../../test/fakeBackend";
import type { ToolCall } from "../../lib/wire.gen";

const bash = (id: string, over: Partial<ToolCall>): ToolCall => ({
  id,
  messageId: 2,
  name: "run_bash",
  label: `→ Running bash: ${id}`,
  input: {},
  status: "done",
  output: "[exit code 0]",
  isError: false,
  startedAt: 1,
  ...over,
});

const blockHome = "The sandbox blocked a write to ~/.bashrc: outside the project the file system is read-only (EROFS).";
const blockNet = "The sandbox refused the connection to example.com:443: the user did not allow that host.";

function withCalls(b: FakeBackend, calls: ToolCall[]) {
  b.details[1] = detail(1, {
    messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: calls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: {} })) }],
    toolCalls: calls,
  });
}

describe("a command's card and the sandbox", () => {
  it("marks a sandboxed command and lists each block, as stored (after a reload)", async () => {
    const b = new FakeBackend();
    withCalls(b, [
      bash("in", { sandbox: { sandboxed: true, blocked: [blockHome, blockNet] }, isError: true, status: "error" }),
      bash("out", { sandbox: { sandboxed: false, outside: true, reason: "It installs pnpm globally." } }),
      bash("none", { sandbox: { sandboxed: false, unavailable: "bubblewrap is not installed: install the package bubblewrap." } }),
      bash("old", {}),
    ]);
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("tool-call");
    expect(cards.map((c) => c.getAttribute("data-sandboxed"))).toEqual(["true", null, null, null]);
    expect(cards.map((c) => within(c).queryByTestId("sandbox-badge")?.textContent ?? null)).toEqual(["sandboxed", "outside the sandbox", "not sandboxed", null]);
    // The blocks show without opening the card, one element each.
    expect(within(cards[0]!).getAllByTestId("sandbox-block").map((e) => e.textContent)).toEqual([blockHome, blockNet]);
    expect(within(cards[1]!).getByTestId("sandbox-outside-reason").textContent).toContain("It installs pnpm globally.");
    expect(within(cards[2]!).getByTestId("sandbox-unavailable").textContent).toContain("bubblewrap is not installed");
    expect(screen.getAllByTestId("sandbox-block")).toHaveLength(2);
  });

  it("shows a block as soon as the live card carries it", async () => {
    const b = new FakeBackend();
    withCalls(b, [bash("c1", { status: "running", output: "", sandbox: { sandboxed: true } })]);
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("tool-call");
    expect(card.getAttribute("data-sandboxed")).toBe("true");
    expect(within(card).queryByTestId("sandbox-block")).toBeNull();
    act(() => b.emit("agent:tool", { sessionId: 1, seq: 1, call: bash("c1", { sandbox: { sandboxed: true, blocked: [blockHome] } }) }));
    await waitFor(() => expect(within(screen.getByTestId("tool-call")).getByTestId("sandbox-block").textContent).toBe(blockHome));
  });
});

describe("approvals of the sandbox", () => {
  it("says plainly that a command asking for sandbox: false runs with full rights, with the model's reason and no always", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [
        {
          id: "o1",
          kind: "outside_sandbox",
          toolCallId: "t1",
          tool: "run_bash",
          command: "npm install -g pnpm",
          reason: "It installs pnpm globally, as the README asks.",
          noAlways: '"Always allow" is not offered: running a command outside the sandbox, with your full rights, is asked every time.',
        },
      ],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    expect(card.getAttribute("data-kind")).toBe("outside_sandbox");
    expect(within(card).getByTestId("bash-outside").textContent).toContain("runs with your full rights, outside the sandbox");
    expect(within(card).getByTestId("bash-outside-reason").textContent).toBe("It installs pnpm globally, as the README asks.");
    expect(within(card).queryByTestId("bash-always")).toBeNull();
    expect(within(card).getByTestId("bash-no-always").textContent).toContain("asked every time");
    fireEvent.click(within(card).getByTestId("bash-reject"));
    await waitFor(() => expect(b.callsOf("decideCommand")).toEqual([["o1", { approve: false, feedback: "", alwaysAllow: false }]]));
  });

  it("says why a command would run unsandboxed where the sandbox cannot start", async () => {
    const b = new FakeBackend();
    const why = "The sandbox cannot start on this machine, so this command would run with your full rights: bubblewrap is not installed.";
    b.details[1] = detail(1, { pending: [{ id: "c1", kind: "command", toolCallId: "t1", tool: "run_bash", command: "make", noSandbox: why }] });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const card = await screen.findByTestId("bash-approval");
    expect(card.getAttribute("data-kind")).toBe("command");
    expect(within(card).getByTestId("bash-no-sandbox").textContent).toBe(why);
  });

  it("asks whether a sandboxed command may reach a new host, once or always, or denies it", async () => {
    const b = new FakeBackend();
    b.details[1] = detail(1, {
      pending: [
        { id: "n1", kind: "network", toolCallId: "t1", tool: "run_bash", command: "curl -sS https://example.com/", host: "example.com", port: 443, alwaysRules: ['allow network "example.com"'] },
        { id: "n2", kind: "network", toolCallId: "t1", tool: "run_bash", command: "curl -sS https://example.org/", host: "example.org", port: 443, alwaysRules: ['allow network "example.org"'] },
      ],
    });
    renderApp(b);
    fireEvent.click(await screen.findByText("Session 1"));
    const cards = await screen.findAllByTestId("network-approval");
    expect(cards.map((c) => c.getAttribute("data-host"))).toEqual(["example.com", "example.org"]);
    expect(cards[0]!.textContent).toContain("curl -sS https://example.com/ wants to reach example.com:443");
    expect(within(cards[0]!).getByTestId("always-rules").textContent).toContain('allow network "example.com"');
    fireEvent.click(within(cards[0]!).getByTestId("network-always"));
    fireEvent.click(within(cards[0]!).getByTestId("network-approve"));
    fireEvent.change(within(cards[1]!).getByTestId("network-feedback"), { target: { value: "no tracking" } });
    fireEvent.click(within(cards[1]!).getByTestId("network-reject"));
    await waitFor(() =>
      expect(b.callsOf("decideCommand")).toEqual([
        ["n1", { approve: true, feedback: "", alwaysAllow: true }],
        ["n2", { approve: false, feedback: "no tracking", alwaysAllow: false }],
      ]),
    );
    expect(screen.queryByTestId("bash-approval")).toBeNull();
  });
});

describe("the sandbox in Settings", () => {
  async function openSandbox(b: FakeBackend) {
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    return screen.findByTestId("settings-sandbox");
  }

  it("says the sandbox is ready", async () => {
    const b = new FakeBackend();
    const part = await openSandbox(b);
    const state = await within(part).findByTestId("sandbox-state");
    expect(state.getAttribute("data-state")).toBe("ready");
    expect(within(state).getByTestId("sandbox-bwrap").textContent).toContain("0.11.0");
  });

  it("says why the sandbox is unavailable and what to install", async () => {
    const b = new FakeBackend();
    b.sandbox = { ready: false, why: "bubblewrap is not installed: install the package bubblewrap (sudo apt install bubblewrap).", userNamespaces: "available", landlockAbi: 0, hidden: [], sockets: [] };
    const part = await openSandbox(b);
    const state = await within(part).findByTestId("sandbox-state");
    expect(state.getAttribute("data-state")).toBe("unavailable");
    expect(within(state).getByTestId("sandbox-why").textContent).toBe(b.sandbox.why);
    expect(within(state).getByTestId("sandbox-bwrap").textContent).toContain("not found");
  });

  it("edits the extra hidden paths, refusing a bad one with the backend's sentence", async () => {
    const b = new FakeBackend();
    b.sandbox = { ...b.sandbox, hidden: ["~/.config/app"] };
    const part = await openSandbox(b);
    const text = (await within(part).findByTestId("sandbox-hidden")) as HTMLTextAreaElement;
    await waitFor(() => expect(text.value).toBe("~/.config/app"));
    fireEvent.change(text, { target: { value: "~/.config/app\nrelative/path" } });
    fireEvent.click(within(part).getByTestId("sandbox-hidden-save"));
    const error = await within(part).findByTestId("sandbox-hidden-error");
    expect(error.textContent).toContain('"relative/path" is neither absolute nor under ~/');
    expect(text.value).toBe("~/.config/app\nrelative/path");
    fireEvent.change(text, { target: { value: "~/.config/app\n/srv/keys\n" } });
    fireEvent.click(within(part).getByTestId("sandbox-hidden-save"));
    await waitFor(() => expect(within(part).queryByTestId("sandbox-hidden-error")).toBeNull());
    expect(b.callsOf("setSandboxHidden").at(-1)).toEqual([["~/.config/app", "/srv/keys", ""]]);
    expect(b.sandbox.hidden).toEqual(["~/.config/app", "/srv/keys"]);
    expect(text.value).toBe("~/.config/app\n/srv/keys");
    // Saving the paths does not save (or close) the settings form.
    expect(b.callsOf("saveSettings")).toEqual([]);
    expect(screen.getByTestId("settings-sandbox")).toBeTruthy();
  });

  it("edits the sockets commands may connect to on their own, refusing a bad one with the backend's sentence", async () => {
    const b = new FakeBackend();
    b.sandbox = { ...b.sandbox, hidden: ["~/.config/app"], sockets: ["~/.colima"] };
    const part = await openSandbox(b);
    const text = (await within(part).findByTestId("sandbox-sockets")) as HTMLTextAreaElement;
    await waitFor(() => expect(text.value).toBe("~/.colima"));
    expect(within(part).getByText(/a command cannot connect to it/).textContent).toContain("next sandbox");
    fireEvent.change(text, { target: { value: "~/.colima\ndocker.sock" } });
    fireEvent.click(within(part).getByTestId("sandbox-sockets-save"));
    expect((await within(part).findByTestId("sandbox-sockets-error")).textContent).toContain('"docker.sock" is neither absolute nor under ~/');
    expect(text.value).toBe("~/.colima\ndocker.sock");
    // An edit of the hidden paths not saved yet stays through the sockets' save.
    fireEvent.change(within(part).getByTestId("sandbox-hidden"), { target: { value: "~/.config/app\n~/not-saved" } });
    fireEvent.change(text, { target: { value: "~/.colima\n~/.docker/run/docker.sock" } });
    fireEvent.click(within(part).getByTestId("sandbox-sockets-save"));
    await waitFor(() => expect(within(part).queryByTestId("sandbox-sockets-error")).toBeNull());
    expect(b.sandbox.sockets).toEqual(["~/.colima", "~/.docker/run/docker.sock"]);
    // The hidden paths are neither saved nor changed.
    expect(b.callsOf("setSandboxHidden")).toEqual([]);
    expect((within(part).getByTestId("sandbox-hidden") as HTMLTextAreaElement).value).toBe("~/.config/app\n~/not-saved");
    expect(b.sandbox.hidden).toEqual(["~/.config/app"]);
  });
});
