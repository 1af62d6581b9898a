package config

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
)

// keepUnknown returns s as a JSON object merged into the object already at
// path: the keys of Settings come from s (a zero one is left out), every
// other key stays as the file has it. A missing, empty or corrupt file
// keeps nothing (writeJSON moves a corrupt one aside).
func keepUnknown(path string, s Settings) (map[string]json.RawMessage, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	old := map[string]json.RawMessage{}
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &old) != nil {
		old = nil
	}
	known := settingsKeys()
	for k, v := range old {
		if !known[k] {
			out[k] = v
		}
	}
	return out, nil
}

// settingsKeys are the JSON names of Settings' fields.
func settingsKeys() map[string]bool {
	t := reflect.TypeFor[Settings]()
	keys := make(map[string]bool, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" {
			name = t.Field(i).Name
		}
		keys[name] = true
	}
	return keys
}
