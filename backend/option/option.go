// Package option holds the rule Pilot's option structs (and settings)
// share for a number: a value at or below zero is not set, and stands
// for the default.
package option

// Or is v when it is set (above zero), else def.
func Or[T ~int | ~int64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
