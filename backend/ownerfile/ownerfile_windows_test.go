package ownerfile

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// openToOthers gives path an access list letting Everyone write it.
func openToOthers(t *testing.T, path string) {
	t.Helper()
	world, err := windows.CreateWellKnownSid(windows.WinWorldSid)
	if err != nil {
		t.Fatal(err)
	}
	acl, err := windows.ACLFromEntries([]windows.EXPLICIT_ACCESS{{
		AccessPermissions: windows.GENERIC_ALL,
		AccessMode:        windows.GRANT_ACCESS,
		Trustee:           windows.TRUSTEE{TrusteeForm: windows.TRUSTEE_IS_SID, TrusteeType: windows.TRUSTEE_IS_WELL_KNOWN_GROUP, TrusteeValue: windows.TrusteeValueFromSID(world)},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, acl, nil); err != nil {
		t.Fatal(err)
	}
}

// TestRestrictACL reads the access list Restrict set back: full access
// for the user running the test, write access for nobody else but SYSTEM
// and the Administrators; on Windows also protected from inheritance and
// that one entry only. Wine 8 keeps a file's access list as its Unix
// mode and reads back the list that mode gives (SYSTEM, the user, read
// for Everyone), so under Wine the last two are only logged.
func TestRestrictACL(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Restrict(path); err != nil {
		t.Fatal(err)
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	me, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		t.Fatalf("no access list: %v", err)
	}
	const fileAllAccess = 0x1f01ff // FILE_ALL_ACCESS, what GENERIC_ALL maps to for a file
	mine := false
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			t.Fatal(err)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		switch {
		case ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE:
		case sid.Equals(me):
			mine = mine || ace.Mask&windows.GENERIC_ALL != 0 || ace.Mask&fileAllAccess == fileAllAccess
		case ace.Mask&writeAccess != 0 && !sid.IsWellKnown(windows.WinLocalSystemSid) && !sid.IsWellKnown(windows.WinBuiltinAdministratorsSid):
			t.Errorf("%s may write the file: %s", sid, sd)
		}
	}
	if !mine {
		t.Errorf("no full access for %s: %s", me, sd)
	}
	control, _, _ := sd.Control()
	if strict := control&windows.SE_DACL_PROTECTED != 0 && dacl.AceCount == 1; !strict {
		if underWine() {
			t.Logf("under Wine the access list reads back as its Unix mode: %s", sd)
		} else {
			t.Errorf("access list %s (control %#x): want one entry, protected from inheritance", sd, control)
		}
	}
}

// underWine reports whether the test runs under Wine (its ntdll has
// wine_get_version).
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
