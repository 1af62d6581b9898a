/**
 * A sentence under a form or in a dialog: an error, announced at once
 * (role alert), or what was done (role status). Nothing when there is
 * none.
 */
export default function FormNote({ text, kind = "error", className, testId }: { text: string | null | undefined; kind?: "error" | "done"; className?: string; testId?: string }) {
  if (!text) return null;
  const error = kind === "error";
  return (
    <p className={className ?? (error ? "error" : "muted")} role={error ? "alert" : "status"} data-testid={testId}>
      {text}
    </p>
  );
}
