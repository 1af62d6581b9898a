// Package hooks runs the hooks of the settings.json files (Claude Code's
// format, read by backend/settingsjson) with Claude Code's documented
// semantics, so a setup written for Claude Code works unchanged:
//
//   - events PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop,
//     SessionStart, SessionEnd, Notification, PreCompact;
//   - a group's matcher picks the tools (or, for SessionStart, PreCompact
//     and Notification, the source, trigger or kind) it applies to: "" and
//     "*" match all, a matcher of letters, digits, '_' and '|' is a list of
//     exact names, anything else a regular expression (unanchored, as in
//     Claude Code);
//   - each hook is `sh -c COMMAND` in the session's folder, the event's
//     JSON on stdin, run outside the model's sandbox as the user's own
//     program with the allowlisted environment (backend/childenv: no
//     provider keys) plus CLAUDE_PROJECT_DIR and PILOT_PROJECT_DIR;
//   - a timeout (the hook's own, else DefaultTimeout) kills the whole
//     process group and the run counts as a non-blocking error;
//   - exit 0 continues (stdout parsed when it is JSON), exit 2 blocks with
//     stderr as the reason, any other code is a non-blocking error shown
//     to the user;
//   - JSON output: continue/stopReason, decision/reason ("block"; the old
//     "approve"), hookSpecificOutput.permissionDecision (allow, deny, ask)
//     with permissionDecisionReason, hookSpecificOutput.additionalContext,
//     systemMessage;
//   - what a hook prints is kept up to MaxOutput bytes per stream, the rest
//     cut with a note.
//
// The matching hooks of an event run in parallel, identical commands once;
// their results are merged: any block blocks, deny beats ask beats allow.
//
// Tools are named to hooks as Claude Code names them (tools.go): run_bash
// is Bash with {command, description, timeout}, write_file is Write with
// an absolute file_path, and so on; docs/CLAUDE-CODE.md has the table.
//
// Trust is not decided here: hooks of the user's own files (ScopeUser,
// ScopePilotUser) run; those of a project's files only when the Trusted
// function given to New says so (nil: never), which covers the scripts
// their commands name (settingsjson.File.Scripts). Each run of a trusted
// project file's hook checks those scripts again and does not run, with
// a sentence, when one changed since the file was read.
package hooks
