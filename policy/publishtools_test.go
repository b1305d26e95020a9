package policy

import "testing"

// TestReleaseToolsPublish: goreleaser, cargo release --execute, rake
// release:*, gem owner --add, mix hex.retire/hex.owner, xcrun altool
// --upload-app and gh release create/upload publish; their local and
// read-only forms do not (polcorp6 probe/publish-module, deny/publish).
func TestReleaseToolsPublish(t *testing.T) {
	var cases []modeCase
	for _, l := range []string{
		"goreleaser release --clean", "goreleaser --clean", "cargo release --execute", "cargo release -x patch",
		"bundle exec rake release:rubygem_push", "rake release", "gem owner appydays --add someone@example.com",
		"mix hex.retire alchemind 1.0.0 security", "mix hex.owner add pkg x@y.z",
		"xcrun altool --upload-app -f build/App.ipa -u dev@example.com -p @keychain:AC_PASSWORD",
		"gh release upload v1.0.0 dist/app.tar.gz",
		"/usr/local/bin/npm publish", "~/.cargo/bin/cargo publish", // an installed tool named by its path
	} {
		cases = append(cases, modeCase{l, "deny", "deny"})
	}
	for _, l := range []string{"goreleaser release --snapshot --clean", "goreleaser release --skip=publish", "cargo release patch", "gem owner appydays"} {
		cases = append(cases, modeCase{l, "ask", "ask"})
	}
	cases = append(cases, modeCase{"rake test", "allow", "allow"}, modeCase{"xcrun simctl list", "allow", "allow"})
	checkModes(t, cases)
}

// TestAmbiguousLongOptionDeniedWhenEveryReadingIs: git push --forc may be
// --force, --force-if-includes or --force-with-lease, each a forced push:
// denied; --fo may also be --follow-tags: it asks (polcorp6 spell/longopt).
func TestAmbiguousLongOptionDeniedWhenEveryReadingIs(t *testing.T) {
	checkModes(t, []modeCase{
		{"git push --forc origin main", "deny", "deny"},
		{"git push --force-w origin main", "deny", "deny"},
		{"git push --fo origin main", "ask", "ask"},
	})
}
