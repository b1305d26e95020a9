package sudoedit

import "testing"

// Two listed files never share a backup prefix: prune keeps the newest
// backups of one file by prefix, and must never count another's.
func TestBackupPrefixesNeverCollide(t *testing.T) {
	paths := []string{"/etc/a_b", "/etc/a/b", "/etc/a__b", "/etc/a_/b", "/etc/a/_b", "/etc/a.b", "/etc/a", "/etc/a%2Fb", "/etc/a%252Fb"}
	seen := map[string]string{}
	for _, p := range paths {
		pre := backupPrefix(p)
		if q, ok := seen[pre]; ok {
			t.Fatalf("%s and %s share the backup prefix %q", p, q, pre)
		}
		seen[pre] = p
	}
}
