//go:build unix

package agent

import (
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

func TestCancelDuringCommand(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("b1", "run_bash", `{"command":"echo $$ > pid.txt; echo started; sleep 30 & sleep 30"}`)}},
		{Text: "Stopped.", When: &fakellm.When{LastUserContains: "go on"}},
	}}, setup{mode: "all"})
	var once atomic.Bool
	h.rec.onEvent = func(name string, p any) {
		if op, ok := p.(wire.ToolOutputPayload); ok && strings.Contains(op.Chunk, "started") && once.CompareAndSwap(false, true) {
			go h.m.Cancel(h.sess.ID)
		}
	}
	start := time.Now()
	if r := h.turn("Run it"); r != ReasonCancelled {
		t.Fatalf("reason %s", r)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %s", d)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(h.read("pid.txt")))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(-pid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d still alive: %v", pid, err)
	}
	calls, _ := h.st.ToolCalls.List(t.Context(), h.sess.ID)
	if calls[0].Status != wire.ToolCancelled || !strings.Contains(calls[0].Output, "started") {
		t.Errorf("call %+v", calls[0])
	}
	checkPairs(t, h.messages())
	h.rec.onEvent = nil
	if r := h.turn("go on"); r != ReasonEndTurn {
		t.Fatalf("next turn %s", r)
	}
	if res := h.results(1); len(res) != 1 || res[0].ToolUseID != "b1" || !strings.HasPrefix(res[0].Content, "Stopped: the user cancelled") {
		t.Errorf("result %+v", res)
	}
}
