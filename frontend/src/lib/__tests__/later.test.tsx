import { render, screen, waitFor } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { BackendContext } from "../backend";
import { later } from "../later";
import { FakeBackend } from "../../test/fakeBackend";

describe("later", () => {
  it("shows a part whose module loads", async () => {
    const Part = later(async () => ({ default: ({ text }: { text: string }) => <p>{text}</p> }));
    render(
      <Suspense fallback={null}>
        <Part text="loaded" />
      </Suspense>,
    );
    expect(await screen.findByText("loaded")).toBeTruthy();
  });

  it("shows why a part could not be loaded, with Reload, and logs it", async () => {
    const b = new FakeBackend();
    const Part = later<object>(() => Promise.reject(new Error("Importing a module script failed.")));
    render(
      <BackendContext.Provider value={b}>
        <Suspense fallback={null}>
          <Part />
        </Suspense>
      </BackendContext.Provider>,
    );
    const banner = await screen.findByTestId("error-banner");
    expect(banner.dataset.kind).toBe("load");
    expect(banner.textContent).toContain("Pilot could not load this part of the window (Importing a module script failed.). Reload the window");
    expect(screen.getByRole("button", { name: "Reload" })).toBeTruthy();
    await waitFor(() => expect(b.callsOf("reportError")).toHaveLength(1));
  });
});
