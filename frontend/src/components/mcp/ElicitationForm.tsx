import { useId, useState } from "react";
import type { Approval, ElicitField, Elicitation } from "../../lib/wire.gen";
import { contentOf, fieldLabel, initialValues, problems, type FieldValue, type FormValues } from "../../lib/elicitation";
import { useController } from "../../state/context";
import FormNote from "../FormNote";
import Visible from "../Visible";
// Loaded with the chat, not with the first screen.
import "../../elicitation.css";

const inputType: Record<string, string> = { email: "email", uri: "url", date: "date" };

/** One field of the form, from its schema: a choice, a flag, ticks, a number or text. */
function Field({ f, value, problem, shown, set }: { f: ElicitField; value: FieldValue; problem?: string; shown: boolean; set: (v: FieldValue) => void }) {
  const id = useId();
  const label = (
    <>
      <Visible text={fieldLabel(f)} />
      {f.required && <span aria-hidden="true"> *</span>}
    </>
  );
  let control;
  if (f.type === "boolean") {
    control = (
      <label className="checkbox">
        <input type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} /> {label}
      </label>
    );
  } else if (f.type === "multi") {
    const ticked = value as string[];
    control = (
      <fieldset>
        <legend>{label}</legend>
        {(f.options ?? []).map((o) => (
          <label key={o.value} className="checkbox">
            <input type="checkbox" checked={ticked.includes(o.value)} onChange={(e) => set(e.target.checked ? [...ticked, o.value] : ticked.filter((x) => x !== o.value))} />{" "}
            <Visible text={o.title || o.value} />
          </label>
        ))}
      </fieldset>
    );
  } else if (f.options && f.options.length > 0) {
    control = (
      <>
        <label htmlFor={id}>{label}</label>
        <select id={id} value={value as string} onChange={(e) => set(e.target.value)}>
          <option value="">—</option>
          {f.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.title || o.value}
            </option>
          ))}
        </select>
      </>
    );
  } else {
    const number = f.type === "number" || f.type === "integer";
    control = (
      <>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type={number ? "number" : (inputType[f.format ?? ""] ?? "text")}
          step={f.type === "integer" ? 1 : number ? "any" : undefined}
          placeholder={f.format === "date-time" ? "YYYY-MM-DDThh:mm:ssZ" : undefined}
          value={value as string}
          onChange={(e) => set(e.target.value)}
        />
      </>
    );
  }
  return (
    <div className="elicitation-field" data-testid="elicitation-field" data-name={f.name}>
      {control}
      {f.description && (
        <p className="muted small-text">
          <Visible text={f.description} />
        </p>
      )}
      {shown && problem && (
        <p className="error small-text" data-testid="elicitation-problem">
          {fieldLabel(f)} {problem}
        </p>
      )}
    </div>
  );
}

/**
 * An MCP server's request for input, on the card of the call it came
 * with: the server's name, its message as plain text (never markup: a
 * link in it is text), and its form. Submit sends the values (Go checks
 * them again and may refuse, said under the form); Decline says no. A
 * stopped turn cancels it.
 */
export default function ElicitationForm({ approval }: { approval: Approval }) {
  const c = useController();
  const e = approval.elicitation as Elicitation;
  const [values, setValues] = useState<FormValues>(() => initialValues(e.fields));
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const wrong = problems(e.fields, values);
  const send = async (accept: boolean) => {
    setTried(true);
    if (accept && Object.keys(wrong).length > 0) return;
    setSending(true);
    const why = await c.approvals.decideElicitation(approval.id, accept ? { action: "accept", content: contentOf(e.fields, values) } : { action: "decline" });
    setRefused(why);
    setSending(false);
  };
  return (
    <form
      className="elicitation-form"
      data-testid="elicitation-form"
      data-approval-id={approval.id}
      data-server={e.server}
      onSubmit={(ev) => {
        ev.preventDefault();
        void send(true);
      }}
    >
      <p className="elicitation-head">
        The MCP server <strong data-testid="elicitation-server"><Visible text={e.server} /></strong> asks you:
      </p>
      <p className="elicitation-message" data-testid="elicitation-message">
        <Visible text={e.message} lines />
      </p>
      {e.fields.map((f) => (
        <Field key={f.name} f={f} value={values[f.name]!} problem={wrong[f.name]} shown={tried} set={(v) => setValues((x) => ({ ...x, [f.name]: v }))} />
      ))}
      <FormNote text={refused} testId="elicitation-refused" />
      <div className="tool-actions">
        <button type="submit" className="primary small" data-testid="elicitation-submit" disabled={sending}>
          Send to {e.server}
        </button>
        <button type="button" className="small" data-testid="elicitation-decline" disabled={sending} onClick={() => void send(false)}>
          Decline
        </button>
      </div>
    </form>
  );
}

/** What a server asked during the call and what was answered, as kept with it. */
export function ElicitationRecords({ list }: { list: Elicitation[] }) {
  return (
    <ul className="elicitation-records">
      {list.map((e, i) => (
        <li key={i} className="muted small-text" data-testid="elicitation-record" data-action={e.action}>
          <Visible text={e.server} /> asked: <q><Visible text={e.message} /></q> —{" "}
          {e.action === "accept" && (
            <>
              sent <code><Visible text={JSON.stringify(e.content ?? {})} /></code>
              {e.why && <> ({e.why})</>}
            </>
          )}
          {e.action === "decline" && (e.why || "declined by you")}
          {e.action === "cancel" && "cancelled: the call ended before an answer"}
        </li>
      ))}
    </ul>
  );
}
