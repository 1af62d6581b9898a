// node bench/branch/run.mjs: builds bench/branch (the window on the fake
// backend, production build) and times, in Chromium at 1280x820, the
// Branch view painted after a click on branch-open (to the first frame with
// its hunks) for a 12-file and a 200-file branch (3 hunks a file), five
// times each after a warm-up. PILOT_E2E_CHROMIUM names the browser, as for
// the e2e runs.
import react from "@vitejs/plugin-react";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = fs.mkdtempSync(path.join(os.tmpdir(), "pilot-bench-branch-"));
await build({ configFile: false, root: here, base: "./", logLevel: "warn", plugins: [react()], build: { outDir: out, emptyOutDir: true, target: "es2022" } });

const types = { ".js": "text/javascript", ".css": "text/css", ".html": "text/html" };
const server = http.createServer((req, res) => {
  const file = path.join(out, path.normalize(decodeURIComponent((req.url ?? "/").split("?")[0])).replace(/^(\.\.[/\\])+/, ""));
  const target = file.endsWith(path.sep) ? path.join(file, "index.html") : file;
  if (!fs.existsSync(target)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": types[path.extname(target)] ?? "application/octet-stream" }).end(fs.readFileSync(target));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const port = server.address().port;

const browser = await chromium.launch({ executablePath: process.env.PILOT_E2E_CHROMIUM || "/usr/bin/chromium" });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(`http://127.0.0.1:${port}/`);

  // From the click on branch-open to the first frame after its hunks are in the page.
  const paint = () =>
    page.evaluate(
      () =>
        new Promise((done) => {
          const ready = () => document.querySelector('[data-testid="branch-view"][data-status="ready"] [data-testid="diff-hunk"]');
          const t0 = performance.now();
          const watch = new MutationObserver(() => {
            if (!ready()) return;
            watch.disconnect();
            requestAnimationFrame(() => setTimeout(() => done({ ms: performance.now() - t0, files: document.querySelectorAll('[data-testid="diff-view"]').length }), 0));
          });
          watch.observe(document.body, { subtree: true, childList: true, attributes: true });
          document.querySelector('[data-testid="branch-open"]').click();
        }),
    );
  const runs = async (title, n) => {
    await page.getByText(title, { exact: true }).first().click();
    await page.getByTestId("branch-open").waitFor();
    const got = [];
    for (let i = 0; i < n; i++) {
      await page.getByTestId("tab-review").click();
      got.push(await paint());
    }
    return got;
  };
  const median = (xs) => xs.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(0);
  const all = (xs) => xs.map((x) => x.ms.toFixed(0)).join(", ");

  await runs("Small", 2); // loads the parts the window loads when first shown
  const small = await runs("Small", 5);
  const big = await runs("Big", 5);
  console.log(`Branch view painted, median of 5: 12 files ${median(small)} ms (${all(small)}); 200 files ${median(big)} ms (${all(big)}), ${big[0].files} of 200 files rendered`);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(out, { recursive: true, force: true });
}
