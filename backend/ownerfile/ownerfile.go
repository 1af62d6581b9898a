// Package ownerfile keeps a file to its owner: Pilot's secrets and what
// the user trusted (API keys, trust files) are made usable by the user
// who runs Pilot only, and such a file that others can change is not
// used. On Unix that is the mode (0600); on Windows, where the mode means
// nothing, the file's access list (an owner-only DACL).
package ownerfile

import "fmt"

// refusal is Check's error for path, which who can change.
func refusal(path, who, fix string) error {
	return fmt.Errorf("%s can be changed by %s, so Pilot does not use it: remove the file (Pilot writes it again, for you only) or %s", path, who, fix)
}
