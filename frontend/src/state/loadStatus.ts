/** Where a load stands; every loaded part of the window's state has one. */
export type LoadStatus = "idle" | "loading" | "ready" | "failed";
