// Small line icons drawn inline: the symbol characters that would do
// (⧉, ⑂) are missing from common Linux fonts and render as boxes.
const paths = {
  copy: "M9 9h10v10H9z M5 15V5h10",
  fork: "M7 4v10 M17 4v3a4 4 0 0 1-4 4H9a2 2 0 0 0-2 2 M7 20a2 2 0 1 0 0-4a2 2 0 0 0 0 4z M17 8a2 2 0 1 0 0-4a2 2 0 0 0 0 4z",
  check: "M5 12l5 5L19 7",
  rewind: "M4 5v5h5 M4.6 10A8 8 0 1 1 6 17",
  remember: "M6 4h12v16l-6-4-6 4z",
} as const;

export type IconName = keyof typeof paths;

export default function Icon({ name }: { name: IconName }) {
  return (
    <svg className="svg-icon" width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={paths[name]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
