// The harness's own hooks: a server started by a spec, and an app restarted
// with extra environment (how fake-LLM specs point the app at their server).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const echoServer = `
const http = require("node:http");
const srv = http.createServer((req, res) => res.end("fake " + req.url));
srv.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + srv.address().port));
`;

export const tests = [
  {
    name: "startServer reads the URL; restartApp passes env and keeps the page working",
    manualStart: true,
    async fn(ctx) {
      const srv = await ctx.startServer(process.execPath, ["-e", echoServer], { name: "echo" });
      assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(await (await fetch(srv.url + "/v1/x")).text(), "fake /v1/x");

      await ctx.startApp({ env: { ANTHROPIC_BASE_URL: srv.url, OPENAI_BASE_URL: srv.url + "/v1" } });
      const environ = readFileSync(`/proc/${ctx.app.proc.pid}/environ`, "utf8").split("\0");
      assert.ok(environ.includes(`ANTHROPIC_BASE_URL=${srv.url}`), "ANTHROPIC_BASE_URL reached the app");
      assert.ok(environ.includes(`PILOT_HOME=${ctx.pilotHome}`), "fresh PILOT_HOME");
      await ctx.page.locator('.app[data-ready="true"]').waitFor({ state: "attached" });

      const firstHome = ctx.pilotHome;
      await ctx.restartApp({ env: { OPENAI_BASE_URL: srv.url + "/v1" }, freshHome: true });
      assert.notEqual(ctx.pilotHome, firstHome);
      const environ2 = readFileSync(`/proc/${ctx.app.proc.pid}/environ`, "utf8").split("\0");
      assert.ok(!environ2.some((e) => e.startsWith("ANTHROPIC_BASE_URL=")), "restart starts from a clean env");
      await ctx.page.locator('.app[data-ready="true"]').waitFor({ state: "attached" });
    },
  },
];
