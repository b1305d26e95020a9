package policy

import "testing"

// TestGuardIsATestRunner: guard reruns the project's tests as its own
// Guardfile says, a test runner of the project as rspec is; a Guardfile
// from elsewhere (-G, --guardfile) or a watched directory outside asks
// (polcorp10: bundle exec guard --no-interactions -i, a CLAUDE.md's "test
// watch mode").
func TestGuardIsATestRunner(t *testing.T) {
	checkOnOff(t, []onOff{
		{"bundle exec guard --no-interactions -i", Allow, Allow},
		{"bundle exec guard", Allow, Allow},
		{"guard", Allow, Allow},
		{"guard -G ~/evil/Guardfile", Ask, Ask},
		{"guard --guardfile=/tmp/G", Ask, Ask},
		{"guard -w ../other", Ask, Ask},
	})
}
