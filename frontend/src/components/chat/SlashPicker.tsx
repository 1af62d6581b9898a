import type { PickerCommand } from "../../lib/types";
import type { SlashCommand } from "../../lib/wire.gen";

/** Commands Pilot runs itself; they come after the user's own in the picker. */
export const builtinCommands: PickerCommand[] = [
  { name: "compact", description: "Summarise the older part of this conversation now", argumentHint: "", source: "builtin" },
  { name: "new", description: "Start a new session", argumentHint: "", source: "builtin" },
  { name: "init", description: "Write a first AGENTS.md for this project (proposed for your review)", argumentHint: "", source: "builtin" },
  { name: "remember", description: "Add a line to this project's AGENTS.md (proposed for your review)", argumentHint: "what to remember", source: "builtin" },
  { name: "remember-user", description: "Add a line to your own instructions for every project, ~/.claude/CLAUDE.md (proposed for your review)", argumentHint: "what to remember", source: "builtin" },
  { name: "review", description: "Review this session's branch (a worktree session) or the project's uncommitted changes, or what this session changed (session): findings on their lines", argumentHint: "[branch|uncommitted|session]", source: "builtin" },
];

const sourceLabel: Record<PickerCommand["source"], string> = {
  builtin: "built in",
  project: ".pilot/commands",
  "project-claude": ".claude/commands",
  user: "yours",
  "user-claude": "~/.claude/commands",
  mcp: "MCP prompt",
  skill: "skill",
};

/**
 * The commands matching query: those whose name starts with it first, then
 * those containing it (built-ins match by prefix only); within each, the
 * project's and the user's own commands come before the built-in ones, so a
 * bare "/" lists what the user wrote first.
 */
/** The built-in commands the window runs itself (PromptBox's runBuiltin). */
const windowRuns = ["compact", "new"];

export function matchCommands(custom: SlashCommand[], query: string): PickerCommand[] {
  const q = query.toLowerCase();
  // The window runs /compact and /new itself, whatever the user's files say
  // (and /review, unless the user has a command of that name);
  // the other built-ins are expanded by the backend after the user's own, so
  // a command of the user's of that name replaces it.
  const own = custom.filter((c) => !windowRuns.includes(c.name) && c.name.toLowerCase().includes(q));
  const builtins = builtinCommands.filter((c) => c.name.startsWith(q) && (windowRuns.includes(c.name) || !custom.some((o) => o.name === c.name)));
  const all = [...own, ...builtins];
  const prefix = (c: PickerCommand) => c.name.toLowerCase().startsWith(q);
  return [...all.filter(prefix), ...all.filter((c) => !prefix(c))];
}

interface Props {
  items: PickerCommand[] | null;
  query: string;
  active: number;
  onPick: (c: PickerCommand) => void;
}

/** The / command picker of the prompt box. */
export default function SlashPicker({ items, query, active, onPick }: Props) {
  return (
    <div className="file-picker" role="listbox" id="slash-picker" aria-label="Commands" data-testid="slash-picker">
      {items === null && <div className="picker-empty">Loading commands…</div>}
      {items?.length === 0 && <div className="picker-empty">No command matches “/{query}”. Commands are Markdown files in .pilot/commands/; skills are folders with a SKILL.md in .claude/skills/.</div>}
      {items?.map((c, i) => (
        <div
          key={`${c.source}/${c.name}`}
          id={`slash-${i}`}
          role="option"
          aria-selected={i === active}
          className={`picker-item${i === active ? " active" : ""}`}
          data-testid="slash-item"
          data-name={c.name}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(c);
          }}
        >
          <span className="picker-name">
            /{c.name}
            {c.argumentHint ? ` ${c.argumentHint}` : ""}
          </span>
          <span className="picker-dir">
            {c.description} · {sourceLabel[c.source]}
          </span>
        </div>
      ))}
    </div>
  );
}
