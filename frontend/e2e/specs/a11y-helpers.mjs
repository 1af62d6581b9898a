// The accessibility check of the window (not a spec itself): axe-core's
// serious and critical violations, and controls that show no keyboard focus.
import { createRequire } from "node:module";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe's serious and critical violations on the page as it is now, as readable lines. */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] }, resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ").trim()}`) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Controls in view whose look does not change when the keyboard focuses them. */
export async function unseenFocus(page) {
  await page.keyboard.press("Shift"); // a key press: programmatic focus now counts as keyboard focus (:focus-visible)
  return page.evaluate(() => {
    const one = (el) => {
      const s = getComputedStyle(el);
      return [s.outlineStyle === "none" ? "" : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`, s.boxShadow, s.borderColor, s.backgroundColor, s.textDecorationLine].join("|");
    };
    // The control's look and its box's (a text box may show focus on the frame around it: :focus-within).
    const look = (el) => one(el) + "||" + (el.parentElement ? one(el.parentElement) : "");
    const out = [];
    const items = [...document.querySelectorAll("button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])")];
    for (const el of items) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      el.blur();
      const before = look(el);
      el.focus({ preventScroll: true });
      if (document.activeElement !== el) continue;
      const after = look(el);
      el.blur();
      if (before === after) out.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ""} "${(el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 40)}"`);
    }
    return out;
  });
}

/** Checks the page as it is now; returns what it found, by screen. */
export async function check(page, screen, found) {
  const v = await axeViolations(page);
  const f = await unseenFocus(page);
  for (const x of v) found.push(`${screen}: [${x.impact}] ${x.id} — ${x.help}\n    ${x.nodes.slice(0, 6).join("\n    ")}`);
  if (f.length) found.push(`${screen}: no visible focus on ${f.length} control(s)\n    ${f.slice(0, 8).join("\n    ")}`);
}

