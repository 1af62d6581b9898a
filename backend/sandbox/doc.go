// Package sandbox confines file access to one project folder and knows which
// files the project ignores.
//
// A Root is the project folder with its symbolic links resolved. Every path a
// tool or the UI receives goes through Root.Resolve (reading) or
// Root.ResolveWrite (changing): relative paths are taken from the root,
// absolute paths are accepted only when they lie inside it, and `..` and
// symbolic links are followed one component at a time the way the kernel
// would, including links in parent folders and a not-yet-existing file below a
// linked folder. A path that ends up outside the root is refused with a
// *PathError whose message names the root and says what to do instead; the
// tools hand that message to the model as a tool result.
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
package sandbox
