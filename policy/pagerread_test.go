package policy

import "testing"

// TestPagerReadInSandbox: less and more of workspace files in plain form
// are reads inside the sandbox (polcorp11, polcorp9, polcorp1207: less -N
// CHANGELOG.md asked as interactive); with the sandbox off, a +command,
// lesskey, log or tag option, a preprocessor set on the line, or a secret
// file keeps its judgement.
func TestPagerReadInSandbox(t *testing.T) {
	checkOnOff(t, []onOff{
		{"less -N README.md", Allow, Ask},
		{"less -FRX README.md", Allow, Ask},
		{"less --chop-long-lines src/a.go", Allow, Ask},
		{"cd src && less a.go", Allow, Ask},
		{"more README.md", Allow, Ask},
		{"git diff | less -R", Allow, Ask},
		// Not a plain read.
		{"less '+!rm -rf ~' README.md", Ask, Ask},
		{"less +F README.md", Ask, Ask},
		{"less -o copy.txt README.md", Ask, Ask},
		{"less --lesskey-file=k README.md", Ask, Ask},
		{"less -k k README.md", Ask, Ask},
		{"LESSOPEN='|rm -rf ~ %s' less README.md", Deny, Deny},
		{"less $F", Ask, Ask},
		{"less ~/.ssh/id_rsa", Deny, Ask},
	})
}
