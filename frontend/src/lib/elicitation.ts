// An MCP server's form (an elicitation): the values the window holds for
// its fields, the check of them in words, and the content sent with
// accept. The check here is a convenience: Go checks the content again
// (mcp.CheckAnswer) and refuses what does not fit.
import type { ElicitField } from "./wire.gen";

/** A field's value as the form holds it: text for text and numbers, a flag, or the choices ticked. */
export type FieldValue = string | boolean | string[];

export type FormValues = Record<string, FieldValue>;

/** The values the form starts with: each field's default (SEP-1034), else empty. */
export function initialValues(fields: ElicitField[]): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const d = f.default;
    switch (f.type) {
      case "boolean":
        out[f.name] = d === true;
        break;
      case "multi":
        out[f.name] = Array.isArray(d) ? d.filter((x): x is string => typeof x === "string") : [];
        break;
      default:
        out[f.name] = typeof d === "string" || typeof d === "number" ? String(d) : "";
    }
  }
  return out;
}

/** How a sentence names a field: its title, else its name. */
export function fieldLabel(f: ElicitField): string {
  return f.title || f.name;
}

const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const date = /^\d{4}-\d{2}-\d{2}$/;
const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function textProblem(f: ElicitField, s: string): string | null {
  if (f.options && f.options.length > 0) return f.options.some((o) => o.value === s) ? null : "must be one of the choices offered.";
  const n = [...s].length;
  if (f.minLength !== undefined && n < f.minLength) return `must have at least ${f.minLength} characters.`;
  if (f.maxLength !== undefined && n > f.maxLength) return `must have at most ${f.maxLength} characters.`;
  switch (f.format) {
    case "email":
      return email.test(s) ? null : "must be an email address, like name@example.com.";
    case "uri":
      return /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/.test(s) ? null : "must be a full address with its scheme, like https://example.com/.";
    case "date":
      return date.test(s) ? null : "must be a date written YYYY-MM-DD.";
    case "date-time":
      return dateTime.test(s) ? null : "must be a date and time written YYYY-MM-DDThh:mm:ssZ (RFC 3339).";
  }
  return null;
}

function numberProblem(f: ElicitField, s: string): string | null {
  const n = Number(s);
  if (s.trim() === "" || !Number.isFinite(n)) return "must be a number.";
  if (f.type === "integer" && !Number.isInteger(n)) return "must be a whole number.";
  if (f.minimum !== undefined && n < f.minimum) return `must be at least ${f.minimum}.`;
  if (f.maximum !== undefined && n > f.maximum) return `must be at most ${f.maximum}.`;
  return null;
}

/** Whether the field holds nothing to send. */
function empty(f: ElicitField, v: FieldValue | undefined): boolean {
  if (v === undefined) return true;
  if (f.type === "boolean") return false;
  return Array.isArray(v) ? v.length === 0 : v === "";
}

/** What is wrong with each field, in words, by field name; empty when nothing is. */
export function problems(fields: ElicitField[], values: FormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (empty(f, v)) {
      if (f.required) out[f.name] = "is required.";
      continue;
    }
    let p: string | null = null;
    if (f.type === "string") p = textProblem(f, v as string);
    else if (f.type === "number" || f.type === "integer") p = numberProblem(f, v as string);
    else if (f.type === "multi") {
      const n = (v as string[]).length;
      if (f.minItems !== undefined && n < f.minItems) p = `must have at least ${f.minItems} choices.`;
      else if (f.maxItems !== undefined && n > f.maxItems) p = `must have at most ${f.maxItems} choices.`;
    }
    if (p) out[f.name] = p;
  }
  return out;
}

/** The content sent with accept: every field that holds a value, as its type. */
export function contentOf(fields: ElicitField[], values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (empty(f, v)) continue;
    out[f.name] = f.type === "number" || f.type === "integer" ? Number(v) : v;
  }
  return out;
}
