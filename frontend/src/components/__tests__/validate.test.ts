import { describe, expect, it } from "vitest";
import { formFromView, thinkingOptions, toInput, validate, type SettingsForm } from "../settings/validate";
import { defaultSettings } from "../../test/fakeBackend";

const base: SettingsForm = { provider: "anthropic", model: "m", baseUrl: "", apiKey: "", clearKey: false, approvalMode: "ask", thinking: "0", budgetTokens: "", budgetUsd: "", retentionMb: "512", mcpTimeout: "60", helpers: "3", jobs: "3", notifications: true };

describe("settings validation", () => {
  it("accepts http(s) URLs only", () => {
    expect(validate({ ...base, baseUrl: "http://localhost:11434/v1" })).toEqual({});
    expect(validate({ ...base, baseUrl: "https://api.example.com" })).toEqual({});
    expect(validate({ ...base, baseUrl: "ftp://x" }).baseUrl).toMatch(/http/);
    expect(validate({ ...base, baseUrl: "localhost:11434" }).baseUrl).toMatch(/http/);
  });
  it("takes 1 to 8 helpers at once", () => {
    expect(validate({ ...base, helpers: "1" }).helpers).toBeUndefined();
    expect(validate({ ...base, helpers: "8" }).helpers).toBeUndefined();
    for (const bad of ["0", "9", "", "2.5", "x"]) expect(validate({ ...base, helpers: bad }).helpers).toMatch(/1 to 8/);
    expect(toInput({ ...base, helpers: "5" }).helperConcurrency).toBe(5);
  });
  it("takes 1 to 20 background jobs per session", () => {
    expect(validate({ ...base, jobs: "1" }).jobs).toBeUndefined();
    expect(validate({ ...base, jobs: "20" }).jobs).toBeUndefined();
    for (const bad of ["0", "21", "", "2.5", "x"]) expect(validate({ ...base, jobs: bad }).jobs).toBe("Background jobs per session must be 1 to 20.");
    expect(toInput({ ...base, jobs: "5" }).jobsPerSession).toBe(5);
    expect(formFromView({ ...defaultSettings, jobsPerSession: 7 }).jobs).toBe("7");
  });
  it("needs a base URL for an OpenAI-compatible server", () => {
    expect(validate({ ...base, provider: "compatible" }).baseUrl).toBeDefined();
  });
  it("rejects negative or malformed budgets", () => {
    expect(validate({ ...base, budgetTokens: "-5" }).budgetTokens).toBeDefined();
    expect(validate({ ...base, budgetTokens: "1.5" }).budgetTokens).toBeDefined();
    expect(validate({ ...base, budgetUsd: "-0.01" }).budgetUsd).toBeDefined();
    expect(validate({ ...base, budgetUsd: "abc" }).budgetUsd).toBeDefined();
    expect(validate({ ...base, budgetTokens: "100000", budgetUsd: "2.50" })).toEqual({});
  });
  it("takes a thinking budget of 0 (off) or at least 1024 tokens, for Anthropic only", () => {
    for (const ok of ["0", "1024", "16384", "100000"]) expect(validate({ ...base, thinking: ok })).toEqual({});
    for (const bad of ["1023", "-1", "1.5", "16k"]) expect(validate({ ...base, thinking: bad }).thinking).toMatch(/0 \(off\) or at least 1024/);
    expect(validate({ ...base, provider: "openai", thinking: "500" })).toEqual({});
  });
  it("offers the presets, and a budget in force that is none of them", () => {
    expect(thinkingOptions("16384").map((o) => o.label)).toEqual(["Off", "4k tokens", "16k tokens", "32k tokens"]);
    expect(thinkingOptions("10000").at(-1)).toEqual({ value: 10000, label: "10,000 tokens" });
  });
  it("maps the form to SettingsInput", () => {
    const f = formFromView({ ...defaultSettings, provider: "openai", baseUrl: "http://localhost:11434/v1" });
    expect(f.provider).toBe("compatible");
    expect(f.thinking).toBe("0");
    expect(toInput({ ...f, budgetUsd: "3" })).toEqual({
      provider: "openai",
      model: "claude-sonnet-4-5",
      baseUrl: "http://localhost:11434/v1",
      apiKey: "",
      clearKey: false,
      approvalMode: "ask",
      thinkingBudget: 0,
      budgetTokens: 0,
      budgetUsd: 3,
      checkpointRetentionMb: 512,
      mcpTimeoutSeconds: 60,
      helperConcurrency: 3,
      jobsPerSession: 3,
      notifications: true,
    });
  });
  it("keeps at least 10 MiB of checkpoints, in whole MiB", () => {
    for (const ok of ["10", "512", "20480"]) expect(validate({ ...base, retentionMb: ok })).toEqual({});
    for (const bad of ["9", "0", "", "-10", "1.5", "lots"]) expect(validate({ ...base, retentionMb: bad }).retentionMb).toMatch(/at least 10 MiB/);
  });
});
