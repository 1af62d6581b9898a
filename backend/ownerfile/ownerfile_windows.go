package ownerfile

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Restrict gives path an access list of one entry, full access for the
// user running Pilot, protected from the folder's inherited entries: the
// Windows form of mode 0600.
func Restrict(path string) error {
	me, err := currentUser()
	if err != nil {
		return err
	}
	acl, err := windows.ACLFromEntries([]windows.EXPLICIT_ACCESS{{
		AccessPermissions: windows.GENERIC_ALL,
		AccessMode:        windows.GRANT_ACCESS,
		Inheritance:       windows.NO_INHERITANCE,
		Trustee: windows.TRUSTEE{
			TrusteeForm:  windows.TRUSTEE_IS_SID,
			TrusteeType:  windows.TRUSTEE_IS_USER,
			TrusteeValue: windows.TrusteeValueFromSID(me),
		},
	}}, nil)
	if err != nil {
		return fmt.Errorf("%s: the owner-only access list could not be made: %w", path, err)
	}
	err = windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, acl, nil)
	if err != nil {
		return fmt.Errorf("%s could not be made private to you (its access list): %w", path, err)
	}
	return nil
}

// writeAccess is what lets someone change a file or its access list.
const writeAccess = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.WRITE_DAC |
	windows.WRITE_OWNER | windows.GENERIC_WRITE | windows.GENERIC_ALL

// Check returns an error, saying what to do, when anyone but the user
// running Pilot, SYSTEM and the Administrators (who can change any file
// anyway) may change path: an allowing entry of its access list with
// write access for another account, or no access list at all (everyone
// may do everything).
func Check(path string) error {
	me, err := currentUser()
	if err != nil {
		return err
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("%s: its access list could not be read: %w", path, err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return refusal(path, "everyone (it has no access list)", "remove it")
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return fmt.Errorf("%s: its access list could not be read: %w", path, err)
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || ace.Mask&writeAccess == 0 {
			continue
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if sid.Equals(me) || sid.IsWellKnown(windows.WinLocalSystemSid) || sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
			continue
		}
		return refusal(path, account(sid), "take that account's write permission away in the file's Properties › Security")
	}
	return nil
}

// currentUser is the SID of the user running Pilot.
func currentUser() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("the user running Pilot could not be found: %w", err)
	}
	return u.User.Sid, nil
}

// account names sid for a message: DOMAIN\name, or the SID itself.
func account(sid *windows.SID) string {
	name, domain, _, err := sid.LookupAccount("")
	switch {
	case err != nil:
		return sid.String()
	case domain != "":
		return domain + `\` + name
	}
	return name
}
