import { describe, expect, it } from "vitest";
import { HtmlCache } from "../htmlCache";

describe("HtmlCache", () => {
  it("renders a source once while it is among the last max used", () => {
    const rendered: string[] = [];
    const c = new HtmlCache((src) => {
      rendered.push(src);
      return `<p>${src}</p>`;
    }, 2);
    expect(c.get("a")).toBe("<p>a</p>");
    expect(c.get("b")).toBe("<p>b</p>");
    expect(c.get("a")).toBe("<p>a</p>"); // a is now the most recent
    expect(c.get("c")).toBe("<p>c</p>"); // b goes
    expect(c.size).toBe(2);
    expect(c.get("a")).toBe("<p>a</p>");
    expect(c.get("b")).toBe("<p>b</p>");
    expect(rendered).toEqual(["a", "b", "c", "b"]);
  });
});
