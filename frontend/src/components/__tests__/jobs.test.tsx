import { describe, expect, it } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderApp } from "../../test/render";
import { detail, FakeBackend, summary } from "../../test/fakeBackend";
import type { ToolCall } from "../../lib/wire.gen";

const server = "python3 -m http.server 0 --bind 127.0.0.1";

/** The window on session 1, opened. */
async function opened(b = new FakeBackend()) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await waitFor(() => expect(b.callsOf("listJobs").map((c) => c[0])).toContain(1));
  return b;
}

const outputRows = () => within(screen.getByTestId("job-output")).queryAllByText(/.*/, { selector: ".job-line" });
const shownLines = () => outputRows().map((e) => e.textContent);

describe("the Jobs panel", () => {
  it("appears once the session has a job, counts the running ones and shows the job's live output", async () => {
    const b = await opened();
    expect(screen.queryByTestId("jobs-open")).toBeNull();
    act(() => void b.jobs.start(1, server, "call1"));
    const open = await screen.findByTestId("jobs-open");
    expect(within(open).getByLabelText("1 running").textContent).toBe("1");
    act(() => b.jobs.write(1, "1", "Serving HTTP on 127.0.0.1 port 41"));
    fireEvent.click(open);
    const item = await screen.findByTestId("job-item");
    expect(item.getAttribute("data-job-id")).toBe("1");
    expect(item.getAttribute("data-state")).toBe("running");
    expect(item.textContent).toContain(server);
    expect(item.textContent).toContain("running");
    await waitFor(() => expect(shownLines()).toEqual(["Serving HTTP on 127.0.0.1 port 41"]));
    expect(b.callsOf("jobOutput")).toEqual([[1, "1"]]);
    // Later chunks append to the line they continue, and new lines follow.
    act(() => b.jobs.write(1, "1", "523 ...\n127.0.0.1 - GET / 200\n"));
    await waitFor(() => expect(shownLines()).toEqual(["Serving HTTP on 127.0.0.1 port 41523 ...", "127.0.0.1 - GET / 200"]));
    // The job ends on its own: its exit code shows, Stop goes, the count too.
    act(() => b.jobs.end(1, "1", "exited", 1));
    await waitFor(() => expect(screen.getByTestId("job-item").getAttribute("data-state")).toBe("exited"));
    expect(screen.getByTestId("job-item").textContent).toContain("exited 1 (failed)");
    expect(screen.queryByTestId("job-stop")).toBeNull();
    expect(within(screen.getByTestId("jobs-open")).queryByLabelText(/running/)).toBeNull();
  });

  it("skips what the read already holds when output arrives during it, and loses none", async () => {
    const b = new FakeBackend();
    b.jobs.start(1, "./watch.sh");
    b.jobs.write(1, "1", "one\ntwo\n", false);
    let release!: () => void;
    b.jobs.outputGate = new Promise<void>((r) => (release = r));
    await opened(b);
    fireEvent.click(await screen.findByTestId("jobs-open"));
    await waitFor(() => expect(b.callsOf("jobOutput")).toHaveLength(1));
    // While the read waits, output goes on: the read will hold "three" too.
    act(() => b.jobs.write(1, "1", "three\n"));
    act(() => b.jobs.write(1, "1", "four\n"));
    await act(async () => release());
    await waitFor(() => expect(shownLines()).toEqual(["one", "two", "three", "four"]));
    act(() => b.jobs.write(1, "1", "five\n"));
    await waitFor(() => expect(shownLines()).toEqual(["one", "two", "three", "four", "five"]));
    expect(b.callsOf("jobOutput")).toHaveLength(1);
  });

  it("reads the output again when a chunk was missed", async () => {
    const b = await opened();
    act(() => void b.jobs.start(1, "make watch"));
    fireEvent.click(await screen.findByTestId("jobs-open"));
    act(() => b.jobs.write(1, "1", "built 1\n"));
    await waitFor(() => expect(shownLines()).toEqual(["built 1"]));
    act(() => b.jobs.write(1, "1", "built 2\n", false)); // never reached the window
    act(() => b.jobs.write(1, "1", "built 3\n"));
    await waitFor(() => expect(shownLines()).toEqual(["built 1", "built 2", "built 3"]));
    expect(b.callsOf("jobOutput").length).toBe(2);
  });

  it("says how much older output Pilot dropped", async () => {
    const b = new FakeBackend();
    b.jobs.start(1, "yes");
    b.jobs.write(1, "1", "y\n".repeat(5000), false);
    b.jobs.held = 20;
    await opened(b);
    fireEvent.click(await screen.findByTestId("jobs-open"));
    await waitFor(() => expect(shownLines()[0]).toBe("[… 9,980 bytes dropped …]"));
    expect(shownLines()).toHaveLength(11);
  });

  it("holds only the visible rows in the DOM while 100,000 lines arrive, and follows the end", async () => {
    const b = await opened();
    act(() => void b.jobs.start(1, "seq 100000"));
    fireEvent.click(await screen.findByTestId("jobs-open"));
    await screen.findByTestId("job-output");
    act(() => {
      for (let k = 0; k < 100; k++) {
        let chunk = "";
        for (let i = k * 1000; i < (k + 1) * 1000; i++) chunk += `line ${i + 1}\n`;
        b.jobs.write(1, "1", chunk);
      }
    });
    await waitFor(() => expect(shownLines().at(-1)).toBe("line 100000"));
    const view = screen.getByTestId("job-output");
    // 100,000 lines of about 11 bytes: the 1 MiB cap keeps most of them.
    const held = Number(view.getAttribute("data-rows"));
    expect(held).toBeGreaterThan(80_000);
    expect(held).toBeLessThanOrEqual(100_001);
    // The view is 600 px of 18 px rows: about 34 rows and the margins, not 100,000.
    expect(outputRows().length).toBeLessThan(120);
    expect(view.scrollTop).toBe(view.scrollHeight - view.clientHeight);
  });

  it("stays where the user scrolled up to while output comes, and follows again at the end", async () => {
    const b = await opened();
    act(() => void b.jobs.start(1, "tail -f log"));
    fireEvent.click(await screen.findByTestId("jobs-open"));
    act(() => b.jobs.write(1, "1", Array.from({ length: 500 }, (_, i) => `row ${i}\n`).join("")));
    await waitFor(() => expect(shownLines().at(-1)).toBe("row 499"));
    const view = screen.getByTestId("job-output");
    act(() => {
      view.scrollTop = 100 * 18;
    });
    await waitFor(() => expect(shownLines()).toContain("row 100"));
    act(() => b.jobs.write(1, "1", Array.from({ length: 100 }, (_, i) => `more ${i}\n`).join("")));
    await waitFor(() => expect(Number(view.getAttribute("data-rows"))).toBe(600));
    expect(view.scrollTop).toBe(100 * 18);
    expect(shownLines()).toContain("row 100");
    expect(shownLines()).not.toContain("more 99");
    // Back at the end: it follows the output again.
    act(() => {
      view.scrollTop = view.scrollHeight;
    });
    act(() => b.jobs.write(1, "1", "last\n"));
    await waitFor(() => expect(shownLines().at(-1)).toBe("last"));
    expect(view.scrollTop).toBe(view.scrollHeight - view.clientHeight);
  });

  it("stops a running job; the item says stopped", async () => {
    const b = await opened();
    act(() => void b.jobs.start(1, server));
    fireEvent.click(await screen.findByTestId("jobs-open"));
    fireEvent.click(await screen.findByTestId("job-stop"));
    await waitFor(() => expect(screen.getByTestId("job-item").getAttribute("data-state")).toBe("stopped"));
    expect(b.callsOf("stopJob")).toEqual([[1, "1"]]);
    expect(screen.queryByTestId("job-stop")).toBeNull();
  });

  it("says why a job could not be stopped", async () => {
    const b = await opened();
    act(() => void b.jobs.start(1, server));
    b.jobs.stopError = "job 1 ended already";
    fireEvent.click(await screen.findByTestId("jobs-open"));
    fireEvent.click(await screen.findByTestId("job-stop"));
    await waitFor(() => expect(screen.getByTestId("error-banner").textContent).toContain("Could not stop job 1: job 1 ended already"));
    expect((screen.getByTestId("job-stop") as HTMLButtonElement).disabled).toBe(false);
  });

  it("keeps each session's jobs, chosen job and output across switching sessions", async () => {
    const b = new FakeBackend();
    b.sessions = [summary(1), summary(2)];
    b.details[2] = detail(2, { session: summary(2) });
    // A session left without a message leaves the list: session 1 has one.
    b.details[1] = detail(1, { messages: [{ id: 1, role: "user", state: "complete", createdAt: 1, blocks: [{ type: "text", text: "Start the dev server" }] }] });
    b.jobs.start(1, "npm run dev");
    b.jobs.start(1, "make watch");
    b.jobs.write(1, "1", "ready on :5173\n", false);
    await opened(b);
    fireEvent.click(await screen.findByTestId("jobs-open"));
    const items = await screen.findAllByTestId("job-item");
    expect(items.map((i) => i.getAttribute("data-job-id"))).toEqual(["1", "2"]);
    // The latest running job is shown first; the user picks the other.
    fireEvent.click(within(items[0]!).getByRole("button", { name: /npm run dev/ }));
    await waitFor(() => expect(shownLines()).toEqual(["ready on :5173"]));
    // Session 2 has none: the tab, still chosen, says so.
    const item = (id: number) => screen.getAllByTestId("session-item").find((e) => e.getAttribute("data-session-id") === String(id))!;
    fireEvent.click(within(item(2)).getByText("Session 2"));
    await waitFor(() => expect(b.callsOf("listJobs").map((c) => c[0])).toContain(2));
    // Output of session 1's job goes on while session 2 is shown.
    act(() => b.jobs.write(1, "1", "hmr update\n"));
    await waitFor(() => expect(screen.getByTestId("jobs-panel").textContent).toContain("No background jobs in this session."));
    expect(screen.queryByTestId("job-item")).toBeNull();
    fireEvent.click(within(item(1)).getByText("Session 1"));
    await waitFor(() => expect(shownLines()).toEqual(["ready on :5173", "hmr update"]));
    expect(screen.getAllByTestId("job-item").find((i) => i.classList.contains("selected"))?.getAttribute("data-job-id")).toBe("1");
    expect(b.callsOf("jobOutput").filter((c) => c[1] === "1")).toHaveLength(1);
  });

  it("links a run_bash card to its job", async () => {
    const b = new FakeBackend();
    const call: ToolCall = { id: "c1", messageId: 2, name: "run_bash", label: `→ Running bash: ${server}`, input: {}, status: "done", output: "Started job 1.", isError: false, startedAt: 1, jobId: "2" };
    b.details[1] = detail(1, { messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: [{ type: "tool_use", id: "c1", name: "run_bash", input: {} }] }], toolCalls: [call] });
    b.jobs.start(1, "sleep 1");
    b.jobs.start(1, server, "c1");
    await opened(b);
    const link = await screen.findByTestId("job-link");
    await waitFor(() => expect(link.textContent).toContain("Background job #2 · running"));
    fireEvent.click(link);
    const panel = await screen.findByTestId("jobs-panel");
    expect(within(panel).getAllByTestId("job-item").find((i) => i.classList.contains("selected"))?.getAttribute("data-job-id")).toBe("2");
    expect(screen.getByTestId("jobs-open").getAttribute("aria-selected")).toBe("true");
  });
});

describe("the quit question and background jobs", () => {
  it("names the running job when only a job runs", async () => {
    const b = await opened();
    act(() => b.emit("app:confirm_quit", { sessions: [], waiting: 0, jobs: [`${server} (session “Serve the docs”)`] }));
    const dialog = await screen.findByTestId("quit-confirm");
    expect(within(dialog).getByTestId("quit-jobs").textContent).toBe(`Quitting stops 1 running job: ${server} (session “Serve the docs”)`);
    expect(dialog.textContent).not.toContain("turn");
  });

  it("names turns and jobs together", async () => {
    const b = await opened();
    act(() => b.emit("app:confirm_quit", { sessions: ["Fix the tests"], waiting: 0, jobs: ["npm run dev", "make watch"] }));
    const dialog = await screen.findByTestId("quit-confirm");
    expect(dialog.textContent).toContain("A turn is still running");
    expect(within(dialog).getByTestId("quit-jobs").textContent).toBe("Quitting stops 2 running jobs:");
    expect(within(dialog).getByText("npm run dev")).toBeTruthy();
    expect(within(dialog).getByText("make watch")).toBeTruthy();
  });
});

describe("Settings: background jobs per session", () => {
  it("shows the saved limit, refuses one out of 1 to 20, and saves a good one", async () => {
    const b = new FakeBackend();
    b.settings = { ...b.settings, jobsPerSession: 4 };
    renderApp(b);
    fireEvent.click(await screen.findByTestId("settings-open"));
    const field = (await screen.findByTestId("settings-jobs")) as HTMLInputElement;
    expect(field.closest("[data-section]")?.getAttribute("data-section")).toBe("helpers");
    expect(field.value).toBe("4");
    fireEvent.change(field, { target: { value: "0" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    expect((await screen.findByText("Background jobs per session must be 1 to 20.")).id).toBe("err-jobs");
    expect(b.callsOf("saveSettings")).toHaveLength(0);
    fireEvent.change(field, { target: { value: "6" } });
    fireEvent.click(screen.getByTestId("settings-save"));
    await waitFor(() => expect(b.callsOf("saveSettings")).toHaveLength(1));
    expect((b.callsOf("saveSettings")[0]![0] as { jobsPerSession: number }).jobsPerSession).toBe(6);
    expect(b.settings.jobsPerSession).toBe(6);
  });
});
