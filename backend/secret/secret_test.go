package secret

import "testing"

func TestMask(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":                             "",
		"short":                        "…",
		"sk-ant-api03-abcdefghij-3f9a": "sk-ant-…3f9a",
		"sk-proj-abcdefghijklmn1234":   "sk-…1234",
	}
	for in, want := range tests {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactIgnoresShortSecrets(t *testing.T) {
	t.Parallel()
	if got := Redact("the key is abc", "abc"); got != "the key is abc" {
		t.Errorf("got %q", got)
	}
}
