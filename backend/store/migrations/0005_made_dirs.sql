-- 0005_made_dirs: the folders a file event's creation made.
--
-- Undoing the creation of a file removes the folders that were made for it,
-- and only those: a folder the project already had (empty, or holding only
-- ignored files) stays. NULL: not known (events recorded before this
-- migration, and commands, whose scans do not see folders); a restore then
-- removes the folders the file leaves empty, as before.
ALTER TABLE file_events ADD COLUMN made_dirs TEXT;
