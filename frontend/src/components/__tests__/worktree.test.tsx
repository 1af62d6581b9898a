import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { FakeBackend, summary } from "../../test/fakeBackend";
import type { SessionSummary } from "../../lib/wire.gen";

const notGit = "/home/u/notes is not in a git repository, so it cannot have worktrees: run `git init` there and make a first commit";

describe("a new session in a new worktree", () => {
  it("offers this folder or a new worktree; the name becomes pilot/NAME and the new session opens", async () => {
    const b = new FakeBackend();
    const made: SessionSummary[] = [];
    const make = b.newWorktreeSession.bind(b);
    b.newWorktreeSession = async (projectId, name) => {
      const s = await make(projectId, name);
      made.push(s);
      return s;
    };
    renderApp(b);
    expect(await screen.findByTestId("session-new")).toBeTruthy();
    fireEvent.click(screen.getByTestId("session-new-worktree"));
    const dialog = await screen.findByTestId("worktree-dialog");
    const name = within(dialog).getByTestId("worktree-name") as HTMLInputElement;
    const create = within(dialog).getByTestId("worktree-create") as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    fireEvent.change(name, { target: { value: "fix-login" } });
    expect(dialog.textContent).toContain("pilot/fix-login");
    fireEvent.click(create);
    await waitFor(() => expect(screen.queryByTestId("worktree-dialog")).toBeNull());
    expect(b.callsOf("newWorktreeSession")).toEqual([[1, "fix-login"]]);
    expect(b.callsOf("newSession")).toEqual([]);
    // The new session is in the list and is the open one.
    const items = await screen.findAllByTestId("session-item");
    const active = items.find((i) => i.classList.contains("active"));
    expect(made.map((s) => s.branch)).toEqual(["pilot/fix-login"]);
    expect(active?.getAttribute("data-session-id")).toBe(String(made[0]!.id));
  });

  it("shows the backend's sentence inline and keeps the name typed", async () => {
    const b = new FakeBackend();
    b.refuseWorktree = () => notGit;
    renderApp(b);
    fireEvent.click(await screen.findByTestId("session-new-worktree"));
    const dialog = await screen.findByTestId("worktree-dialog");
    const name = within(dialog).getByTestId("worktree-name") as HTMLInputElement;
    fireEvent.change(name, { target: { value: "spike" } });
    fireEvent.submit(name.form!);
    const error = await within(dialog).findByTestId("worktree-error");
    expect(error.textContent).toBe(notGit);
    expect(error.getAttribute("role")).toBe("alert");
    expect(name.value).toBe("spike");
    expect(screen.queryByTestId("error-banner")).toBeNull();
    // Cancel closes it and starts nothing.
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByTestId("worktree-dialog")).toBeNull());
    expect(b.callsOf("newWorktreeSession")).toEqual([[1, "spike"]]);
  });
});

describe("deleting a worktree session", () => {
  it("says that its worktree and branch go too, and a folder session's does not", async () => {
    const b = new FakeBackend();
    b.sessions = [summary(1, { branch: "pilot/fix", worktree: "/home/u/.pilot/worktrees/1/fix" }), summary(2)];
    renderApp(b);
    const items = await screen.findAllByTestId("session-item");
    const item = (id: number) => items.find((e) => e.getAttribute("data-session-id") === String(id))!;
    fireEvent.click(within(item(1)).getByRole("button", { name: "Delete session" }));
    expect(within(item(1)).getByTestId("session-delete-worktree").textContent).toContain("Its worktree and branch pilot/fix go too");
    fireEvent.click(within(item(2)).getByRole("button", { name: "Delete session" }));
    expect(within(item(2)).queryByTestId("session-delete-worktree")).toBeNull();
  });
});
