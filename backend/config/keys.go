package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"pilot/backend/childenv"
	"pilot/backend/ownerfile"
)

// Keys maps a provider name to its API key, as saved in <home>/keys.json
// (mode 0600). Keys never go to settings.json, the database or logs.
type Keys map[string]string

// SearchKey is the name under which keys.json keeps the API key of a
// web search backend (websearch.Brave, websearch.Tavily), apart from the
// providers' names.
func SearchKey(backend string) string { return "search:" + backend }

// LoadKeys reads <home>/keys.json; a missing file gives no keys. A file
// readable by others is made private (0600) again.
func LoadKeys(home string) (Keys, error) {
	path := filepath.Join(home, KeysFile)
	if err := fixMode(path); err != nil {
		return Keys{}, err
	}
	k := Keys{}
	if err := readJSON(path, &k); err != nil {
		return Keys{}, err
	}
	for _, v := range k {
		childenv.Hold(v) // no program Pilot starts may get it
	}
	return k, nil
}

// SaveKey stores the key of provider in <home>/keys.json with mode 0600; an
// empty key removes it.
func SaveKey(home, provider, key string) error {
	keys, err := LoadKeys(home)
	if err != nil && !errors.Is(err, ErrCorrupt) {
		return err // a corrupt file is moved aside by writeJSON
	}
	if key == "" {
		delete(keys, provider)
	} else {
		keys[provider] = key
		childenv.Hold(key)
	}
	path := filepath.Join(home, KeysFile)
	if err := writeJSON(path, keys, 0o600); err != nil {
		return err
	}
	return fixMode(path)
}

// fixMode makes path mode 0600 if it exists with looser permissions; on
// Windows, where the mode means nothing, it gives it an owner-only access
// list (ownerfile).
func fixMode(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return nil // missing: nothing to fix; other errors surface on read
	}
	if runtime.GOOS == "windows" {
		return ownerfile.Restrict(path)
	}
	if info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o600); err != nil {
			return fmt.Errorf("%s is readable by other users and could not be made private: %w", path, err)
		}
	}
	return nil
}
