import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend, summary } from "../../test/fakeBackend";

async function started(b = new FakeBackend()) {
  renderApp(b);
  await screen.findAllByTestId("session-item");
  return b;
}

describe("a second launch (pilot DIR)", () => {
  it("shows the folder the backend opened", async () => {
    const b = await started();
    b.projects.push({ id: 2, path: "/home/u/other", name: "other", lastOpened: 20 });
    act(() => b.emit("app:open_project", { path: "/home/u/other" }));
    await waitFor(() => expect(b.callsOf("openProject").map((c) => c[0])).toContain("/home/u/other"));
    await waitFor(() => expect(screen.getAllByTestId("project-item")[0]!.getAttribute("data-path")).toBe("/home/u/other"));
  });

  it("says why a folder could not be opened", async () => {
    const b = await started();
    act(() => b.emit("app:open_project", { path: "nope", error: "Could not open nope: there is no folder /tmp/nope: check the path" }));
    expect((await screen.findByTestId("error-banner")).textContent).toContain("there is no folder /tmp/nope");
    expect(b.callsOf("openProject").map((c) => c[0])).not.toContain("nope");
  });
});

describe("a data folder Pilot cannot open", () => {
  it("shows why with Quit, and nothing else of the window", async () => {
    const b = new FakeBackend();
    b.startError = new Error("Pilot could not open its data under /home/u/.pilot: opening the session database: file is not a database. Close Pilot, then repair or move that folder, or start Pilot with another PILOT_HOME");
    renderApp(b);
    const shown = await screen.findByTestId("start-error");
    expect(shown.getAttribute("role")).toBe("alert");
    expect(screen.getByTestId("start-error-message").textContent).toContain("file is not a database");
    expect(screen.getByTestId("start-error-message").textContent).toContain("start Pilot with another PILOT_HOME");
    expect(screen.queryByTestId("session-item")).toBeNull();
    expect(document.querySelector(".app")).toBeNull();
    fireEvent.click(screen.getByTestId("start-error-quit"));
    await waitFor(() => expect(b.callsOf("quitNow")).toHaveLength(1));
  });
});

describe("a clicked notification", () => {
  it("opens the session's project, then the session", async () => {
    const b = await started();
    b.projects.push({ id: 2, path: "/home/u/other", name: "other", lastOpened: 20 });
    b.sessions.push(summary(42));
    act(() => b.emit("app:open_session", { projectPath: "/home/u/other", sessionId: 42 }));
    await waitFor(() => expect(b.callsOf("getSession").map((c) => c[0])).toContain(42));
    expect(b.callsOf("openProject").map((c) => c[0])).toContain("/home/u/other");
  });
});

describe("closing with work in flight", () => {
  it("asks, keeps working on no, and quits on yes", async () => {
    const b = await started();
    act(() => b.emit("app:confirm_quit", { sessions: ["Fix the greeting"], waiting: 1, jobs: [] }));
    const dialog = await screen.findByTestId("quit-confirm");
    expect(dialog.textContent).toContain("A turn is still running and an approval waits for you");
    expect(within(dialog).getByText("Fix the greeting")).toBeTruthy();
    fireEvent.click(screen.getByTestId("quit-cancel"));
    await waitFor(() => expect(screen.queryByTestId("quit-confirm")).toBeNull());
    expect(b.callsOf("quitNow")).toHaveLength(0);

    act(() => b.emit("app:confirm_quit", { sessions: ["One", "Two"], waiting: 0, jobs: [] }));
    expect((await screen.findByTestId("quit-confirm")).textContent).toContain("2 turns are still running:");
    fireEvent.click(screen.getByTestId("quit-now"));
    await waitFor(() => expect(b.callsOf("quitNow")).toHaveLength(1));
  });
});

describe("every confirmation carries the confirm-* ids", () => {
  it("names the quit question and its buttons both ways, each name clicking the same button", async () => {
    const b = await started();
    act(() => b.emit("app:confirm_quit", { sessions: ["Fix the greeting"], waiting: 0, jobs: [] }));
    const quit = await screen.findByTestId("quit-confirm");
    const dialog = screen.getByTestId("confirm-dialog");
    expect(quit.contains(dialog) || dialog.contains(quit)).toBe(true);
    expect(dialog.textContent).toContain("A turn is still running");
    expect(screen.getByTestId("quit-cancel").contains(screen.getByTestId("confirm-cancel"))).toBe(true);
    expect(screen.getByTestId("quit-now").contains(screen.getByTestId("confirm-accept"))).toBe(true);
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    await waitFor(() => expect(screen.queryByTestId("quit-confirm")).toBeNull());
    expect(b.callsOf("quitNow")).toHaveLength(0);

    act(() => b.emit("app:confirm_quit", { sessions: ["One"], waiting: 0, jobs: [] }));
    fireEvent.click(await screen.findByTestId("confirm-accept"));
    await waitFor(() => expect(b.callsOf("quitNow")).toHaveLength(1));
  });

  it("asks before deleting a session with the confirm-* ids", async () => {
    const b = await started();
    const item = screen.getAllByTestId("session-item")[0]!;
    fireEvent.click(within(item).getByRole("button", { name: "Delete session" }));
    const dialog = await screen.findByTestId("confirm-dialog");
    expect(dialog.textContent).toContain("“Session 1” and its conversation are deleted.");
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    await waitFor(() => expect(screen.queryByTestId("confirm-dialog")).toBeNull());
    expect(b.callsOf("deleteSession")).toHaveLength(0);
    fireEvent.click(within(item).getByRole("button", { name: "Delete session" }));
    fireEvent.click(await screen.findByTestId("confirm-accept"));
    await waitFor(() => expect(b.callsOf("deleteSession")).toEqual([[1]]));
  });
});

describe("the notifications switch", () => {
  it("saves notifications off", async () => {
    const b = await started();
    fireEvent.click(screen.getByTestId("settings-open"));
    const box = (await screen.findByTestId("settings-notifications")) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect(b.callsOf("saveSettings")[0]![0]).toMatchObject({ notifications: false });
    expect(b.settings.notifications).toBe(false);
  });
});
