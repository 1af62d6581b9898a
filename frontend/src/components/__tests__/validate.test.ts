import { describe, expect, it } from "vitest";
import { formFromView, toInput, validate, type SettingsForm } from "../settings/validate";
import { defaultSettings } from "../../test/fakeBackend";

const base: SettingsForm = { provider: "anthropic", model: "m", baseUrl: "", apiKey: "", clearKey: false, approvalMode: "ask", budgetTokens: "", budgetUsd: "" };

describe("settings validation", () => {
  it("accepts http(s) URLs only", () => {
    expect(validate({ ...base, baseUrl: "http://localhost:11434/v1" })).toEqual({});
    expect(validate({ ...base, baseUrl: "https://api.example.com" })).toEqual({});
    expect(validate({ ...base, baseUrl: "ftp://x" }).baseUrl).toMatch(/http/);
    expect(validate({ ...base, baseUrl: "localhost:11434" }).baseUrl).toMatch(/http/);
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
  it("maps the form to SettingsInput", () => {
    const f = formFromView({ ...defaultSettings, provider: "openai", baseUrl: "http://localhost:11434/v1" });
    expect(f.provider).toBe("compatible");
    expect(toInput({ ...f, budgetUsd: "3" })).toEqual({
      provider: "openai",
      model: "claude-sonnet-4-5",
      baseUrl: "http://localhost:11434/v1",
      apiKey: "",
      clearKey: false,
      approvalMode: "ask",
      budgetTokens: 0,
      budgetUsd: 3,
    });
  });
});
