package wailsbridge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/godbus/dbus/v5"
)

// InstanceID is the options.SingleInstanceLock UniqueId of the window
// that owns the data directory home: one window per PILOT_HOME (one
// database), while windows of other homes (tests, a second profile) run
// side by side.
func InstanceID(home string) string {
	if abs, err := filepath.Abs(home); err == nil {
		home = abs
	}
	sum := sha256.Sum256([]byte(home))
	return "pilot_" + hex.EncodeToString(sum[:8])
}

// Launch is what a second launch hands to the running window: Wails'
// options.SecondInstanceData, field for field (its JSON is the message).
type Launch struct {
	Args             []string
	WorkingDirectory string
}

// ErrNoInstance means no window of that id is running.
var ErrNoInstance = errors.New("no running window")

// Forward hands a launch to the running window of id over the D-Bus
// session bus, the way Wails' single-instance lock does on Linux (a
// SendMessage call with the JSON of the launch), before this process
// opens the database. It returns ErrNoInstance when no window owns the
// lock (or there is no session bus): then this process is the window.
func Forward(id string, l Launch) error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return ErrNoInstance
	}
	defer conn.Close()
	return forward(conn, id, l)
}

// dbusName and dbusPath are where Wails v2.16's Linux SetupSingleInstance
// exports the running window's SendMessage method.
func dbusName(id string) string {
	return "org." + wailsID(id) + ".SingleInstance"
}

func dbusPath(id string) dbus.ObjectPath {
	return dbus.ObjectPath("/org/" + wailsID(id) + "/SingleInstance")
}

func wailsID(id string) string {
	return "wails_app_" + strings.NewReplacer("-", "_", ".", "_").Replace(id)
}

func forward(conn *dbus.Conn, id string, l Launch) error {
	name := dbusName(id)
	var owned bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&owned); err != nil {
		return fmt.Errorf("asking the session bus for the running window: %w", err)
	}
	if !owned {
		return ErrNoInstance
	}
	msg, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if err := conn.Object(name, dbusPath(id)).Call(name+".SendMessage", 0, string(msg)).Err; err != nil {
		return fmt.Errorf("handing the launch to the running window: %w", err)
	}
	return nil
}
