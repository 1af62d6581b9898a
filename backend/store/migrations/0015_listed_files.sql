-- 0015_listed_files: what a command changed that the ledger lists without
-- keeping it, and which of the files it changed can run code.
--
-- file_events.runs_code says why the file, as the command left it, can run
-- code ("a git hook", "executable", ...: ledger.RunsCode), '' when it
-- cannot, and for every event recorded before this version.
-- checkpoints.listed is a JSON array of the files a command changed that
-- the ledger lists but does not keep (in .git folders, ignored, over the
-- per-command limit), each {path, op, why, runsCode, folder}: shown on the
-- command's card and in the Changes view, never reverted. '[]' for every
-- checkpoint before this version (whose commands' scans did not see them).

ALTER TABLE file_events ADD COLUMN runs_code TEXT NOT NULL DEFAULT '';
ALTER TABLE checkpoints ADD COLUMN listed TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(listed) AND json_type(listed) = 'array');
