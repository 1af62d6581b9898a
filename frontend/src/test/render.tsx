// Renders the whole window (or a part) with a fake backend.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";
import type { ReactNode } from "react";
import App from "../App";
import { BackendContext } from "../lib/backend";
import { boot } from "../state/boot";
import { AppController } from "../state/controller";
import { ControllerContext } from "../state/context";
import { FakeBackend } from "./fakeBackend";
import { allLoaded } from "../lib/later";

// The parts the window loads when first shown are loaded before any test
// renders: a test sees the window as a user does once they are there.
await allLoaded();

export function renderApp(backend = new FakeBackend()) {
  const started = boot(backend);
  const utils = render(
    <BackendContext.Provider value={backend}>
      <App boot={started} />
    </BackendContext.Provider>,
  );
  return { backend, controller: started.controller, ...utils };
}

/** Renders a part with a controller of its own (not started unless asked). */
export function renderWith(ui: ReactNode, backend = new FakeBackend(), start = true) {
  const controller = new AppController(backend);
  const stop = start ? controller.start() : () => {};
  const utils = render(
    <BackendContext.Provider value={backend}>
      <ControllerContext.Provider value={controller}>{ui}</ControllerContext.Provider>
    </BackendContext.Provider>,
  );
  return { backend, controller, stop, ...utils };
}

/** Renders the window and opens "Session 1" of the backend, once its detail is read and shown. */
export async function openSessionOne(b: FakeBackend) {
  renderApp(b);
  fireEvent.click(await screen.findByText("Session 1"));
  await screen.findByTestId("chat-input");
  await waitFor(() => expect(b.callsOf("getSession")).toHaveLength(1));
  await act(async () => {});
}
