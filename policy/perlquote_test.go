package policy

import "testing"

// TestPerlQuoteLikeSpawns: perl's q{…}/qq{…} strings and $ENV{NAME} reads
// in system() are the shell line they spell, judged as python's
// os.system("…") of that line is (polcorp9, polcorp10: asked as inline
// code); a harmless line stays as inline code is judged.
func TestPerlQuoteLikeSpawns(t *testing.T) {
	checkOnOff(t, []onOff{
		{`perl -e 'system(q{rm -rf --no-preserve-root /})'`, Deny, Deny},
		{`perl -e 'system(qq{shred -u "$ENV{HOME}/.ssh/id_ed25519"})'`, Deny, Deny},
		{`perl -e 'system("rm -rf $ENV{HOME}/.ssh")'`, Deny, Deny},
		{`perl -e 'system(q(twine upload dist/*))'`, Deny, Deny},
		{`perl -e 'system q{git push --force origin main}'`, Deny, Deny},
		{`perl -e 'system(q{ls -la})'`, Ask, Ask},
	})
}
