//go:build unix

package folder

import "syscall"

// oDirectory makes an open fail unless the path is a folder.
const oDirectory = syscall.O_DIRECTORY
