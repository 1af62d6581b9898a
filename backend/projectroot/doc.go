// Package projectroot confines file access to one project folder and knows which
// files the project ignores.
//
// A Root is the project folder with its symbolic links resolved, opened
// once as an *os.Root. Every file and folder a tool or the UI touches is
// opened through it (OpenRead, Stat, ListDir, Walk, MkdirAll, WriteAtomic,
// SymlinkAtomic, Remove): the standard library opens one component at a
// time relative to the folders already open, with O_NOFOLLOW, follows a
// link only while it stays beneath the root (never an absolute one), and
// restarts `..` from the root, so resolution and open are one step and a
// folder swapped for a link between two calls leads nowhere. Resolve and
// ResolveWrite only check and clean a path (ResolveWrite also asks the
// kernel where the folder of a change really is, to refuse .git); a
// refusal is a *PathError whose message names the root, the link that led
// out (worded by a lexical walk after the root refused, never deciding)
// and what to do instead; the tools hand it to the model as a tool result.
// Reads open with O_NONBLOCK and refuse anything that is not a regular
// file (a FIFO would wait forever); ReadAtMost bounds them.
//
// Ignore rules come from `.gitignore` files (nested ones apply to their own
// folder and below, deeper files win), `.git/info/exclude` and `.pilotignore`
// files (same syntax, read after the `.gitignore` of the same folder). The
// `.git` folder itself is always skipped. Rules hide files from listings and
// searches only; an ignored file can still be resolved and read by its path.
//
// Two listings use the rules:
//
//	root.ListDir(rel)          one folder, folders first (the UI file tree, list_files)
//	root.Walk(ctx, start, fn)  every file below a folder, in parallel (glob, grep)
//
// The change ledger's scan walks with WalkFolders(..., all, ...), which
// also reports what the rules leave out (.git folders, ignored files),
// each with why (Entry.Skipped), so that it can list every file a command
// changed.
package projectroot
