import { describe, expect, it, vi } from "vitest";
import type { BranchView } from "../../lib/wire.gen";
import { BranchCache } from "../branchCache";

const viewOf = (version: string): BranchView => ({ sessionId: 1, version, branch: "pilot/x", base: "abc", worktree: "/w", files: [] });

/** A backend whose reads wait until the test answers them, one by one, in order. */
function heldBackend() {
  const waiting: { answer: (v: BranchView) => void; fail: (e: Error) => void }[] = [];
  let reads = 0;
  return {
    backend: {
      getBranch: () => {
        reads++;
        return new Promise<BranchView>((answer, fail) => waiting.push({ answer, fail }));
      },
    },
    reads: () => reads,
    answer: (v: BranchView) => waiting.shift()!.answer(v),
    fail: (e: Error) => waiting.shift()!.fail(e),
  };
}

describe("BranchCache", () => {
  it("a view opened during a read joins it, and gets its view, without a read of its own", async () => {
    const b = heldBackend();
    const cache = new BranchCache(b.backend);
    const ahead = cache.read(1, true);
    const opened = cache.read(1, false);
    expect(b.reads()).toBe(1);
    expect(cache.state(1)).toBe("reading");
    b.answer(viewOf("v1"));
    expect((await opened).version).toBe("v1");
    expect((await ahead).version).toBe("v1");
    expect(cache.state(1)).toBe("held");
    expect(cache.view(1)?.version).toBe("v1");
  });

  it("a change during a read brings one more read after it, and everyone gets the last view", async () => {
    const b = heldBackend();
    const cache = new BranchCache(b.backend);
    const first = cache.read(1, false);
    const changed = cache.read(1, true);
    b.answer(viewOf("v1"));
    await vi.waitFor(() => expect(b.reads()).toBe(2));
    expect(cache.view(1)?.version).toBe("v1");
    expect(cache.state(1)).toBe("reading");
    b.answer(viewOf("v2"));
    expect((await first).version).toBe("v2");
    expect((await changed).version).toBe("v2");
    expect(cache.view(1)?.version).toBe("v2");
  });

  it("tells its subscribers of each change, and forgets what was dropped even when a read ends after", async () => {
    const b = heldBackend();
    const cache = new BranchCache(b.backend);
    const seen: string[] = [];
    const off = cache.subscribe(() => seen.push(cache.state(1)));
    const read = cache.read(1, false);
    cache.drop(1);
    b.answer(viewOf("v1"));
    expect((await read).version).toBe("v1");
    expect(cache.state(1)).toBe("none");
    expect(cache.view(1)).toBeNull();
    expect(seen[0]).toBe("reading");
    off();
  });

  it("a failed read leaves nothing to paint from, and rejects its readers", async () => {
    const b = heldBackend();
    const cache = new BranchCache(b.backend);
    const first = cache.read(1, false);
    b.answer(viewOf("v1"));
    await first;
    const again = cache.read(1, false);
    b.fail(new Error("the worktree is gone"));
    await expect(again).rejects.toThrow("the worktree is gone");
    expect(cache.state(1)).toBe("none");
    expect(cache.view(1)).toBeNull();
  });
});
