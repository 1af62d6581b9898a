package wailsbridge

import (
	"encoding/json"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"pilot/backend/internal/dbustest"
)

func TestInstanceID(t *testing.T) {
	t.Parallel()
	a, b := InstanceID("/home/u/.config/pilot"), InstanceID("/tmp/other-home")
	if a == b {
		t.Fatalf("two homes share the id %s", a)
	}
	if a != InstanceID("/home/u/.config/pilot/") {
		t.Fatal("the same home with a trailing slash has another id")
	}
	// A D-Bus name element: letters, digits, underscores, not starting with a digit.
	if !regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`).MatchString(wailsID(a)) {
		t.Fatalf("%q is not a valid D-Bus name element", wailsID(a))
	}
}

// receiver exports SendMessage at the name and path Wails' Linux
// SetupSingleInstance uses, and hands each message on.
type receiver chan string

func (r receiver) SendMessage(message string) *dbus.Error {
	r <- message
	return nil
}

func TestForward(t *testing.T) {
	t.Parallel()
	addr := dbustest.Start(t)
	id := InstanceID(t.TempDir())
	second := dbustest.Connect(t, addr)

	if err := forward(second, id, Launch{Args: []string{"."}}); !errors.Is(err, ErrNoInstance) {
		t.Fatalf("forward with no window running = %v, want ErrNoInstance", err)
	}

	first := dbustest.Connect(t, addr)
	got := make(receiver, 1)
	if err := first.Export(got, dbusPath(id), dbusName(id)); err != nil {
		t.Fatal(err)
	}
	if reply, err := first.RequestName(dbusName(id), dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName = %v, %v", reply, err)
	}
	// Another home's window is not this one.
	if err := forward(second, InstanceID(t.TempDir()), Launch{}); !errors.Is(err, ErrNoInstance) {
		t.Fatalf("forward to another home = %v, want ErrNoInstance", err)
	}
	want := Launch{Args: []string{"../proj"}, WorkingDirectory: "/home/u/src"}
	if err := forward(second, id, want); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-got:
		// Wails decodes it into options.SecondInstanceData: the same field names.
		var l struct {
			Args             []string
			WorkingDirectory string
		}
		if err := json.Unmarshal([]byte(msg), &l); err != nil {
			t.Fatal(err)
		}
		if len(l.Args) != 1 || l.Args[0] != "../proj" || l.WorkingDirectory != "/home/u/src" {
			t.Fatalf("the window got %s", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the running window got nothing")
	}
}
