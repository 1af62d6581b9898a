import type { ReactNode } from "react";

/** A field's error, which its input names in aria-describedby (err-NAME). */
export function FieldError({ name, error }: { name: string; error: string | undefined }) {
  return error ? (
    <span className="field-error" id={`err-${name}`} role="alert">
      {error}
    </span>
  ) : null;
}

/**
 * A number typed in Settings, with its unit after it ("MiB kept per
 * project"), a hint under it, and its error when it has one; the input
 * is described by the error while there is one, else by the hint.
 */
export default function NumberField({
  name,
  label,
  testId,
  value,
  error,
  onChange,
  unit,
  hintId,
  hintTestId,
  children,
}: {
  name: string;
  label: string;
  testId: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  unit: string;
  hintId: string;
  hintTestId?: string;
  /** The hint. */
  children: ReactNode;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <span className="retention">
        <input data-testid={testId} inputMode="numeric" value={value} aria-invalid={!!error} aria-describedby={error ? `err-${name}` : hintId} onChange={(e) => onChange(e.target.value)} />{" "}
        {unit}
      </span>
      <span className="hint" id={hintId} data-testid={hintTestId}>
        {children}
      </span>
      <FieldError name={name} error={error} />
    </label>
  );
}
