package llm

import "testing"

func TestJoinText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		blocks []ContentBlock
		want   string
	}{
		{"none", nil, ""},
		{"one", []ContentBlock{TextBlock("fix the build")}, "fix the build"},
		{"lines apart", []ContentBlock{TextBlock("a"), TextBlock("b")}, "a\nb"},
		{"blank and other blocks left out", []ContentBlock{TextBlock("  \n"), {Type: BlockImage}, TextBlock("a")}, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := JoinText(tt.blocks); got != tt.want {
				t.Errorf("JoinText = %q, want %q", got, tt.want)
			}
		})
	}
}
