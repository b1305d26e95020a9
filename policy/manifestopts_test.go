package policy

import "testing"

// TestManifestInstallSettings: a manifest install's options whose value is
// a setting or a group, written as a separate word (bundle install -j 2,
// --jobs 4, --retry 3, --without production; npm ci --omit dev; pnpm
// install -F web; mix deps.get --only test), no longer make their value a
// package name: the install stays the manifest's, sandbox only. A named
// package after them is still one (polcorp10: bundle install -j 2, from a
// Makefile's BUNDLE_OPTIONS).
func TestManifestInstallSettings(t *testing.T) {
	checkOnOff(t, []onOff{
		{"bundle install -j 2", Allow, Ask},
		{"bundle install --jobs 4", Allow, Ask},
		{"bundle install --retry 3", Allow, Ask},
		{"bundle install --without production", Allow, Ask},
		{"npm ci --omit dev", Allow, Ask},
		{"pnpm install -F web", Allow, Ask},
		{"pnpm install --filter web --frozen-lockfile", Allow, Ask},
		{"mix deps.get --only test", Allow, Ask},
		{"pipenv install --categories dev", Allow, Ask},
		{"bundle install --jobs 4 rails", Ask, Ask},
		{"bundle install --path /tmp/gems", Ask, Ask},
		{"bundle install --gemfile /tmp/Gemfile", Ask, Ask},
	})
}
