package policy

import "testing"

// TestZshPlainPayloadAsBash: zsh -c / -lc with a payload zsh and bash read
// alike is judged as bash -lc is (polcorp11: Codex's zsh -lc 'git status
// --short' asked); a payload using anything zsh expands or joins its own
// way keeps asking, and what bash would deny stays denied.
func TestZshPlainPayloadAsBash(t *testing.T) {
	checkOnOff(t, []onOff{
		{"zsh -lc 'git status --short'", Allow, Allow},
		{`zsh -lc "git diff --stat && git log --oneline -5"`, Allow, Allow},
		{"zsh -c 'go test ./... | tail -20'", Allow, Allow},
		{`zsh -lc 'git log --format="%h %s" -3'`, Allow, Allow},
		// zsh's own expansions and operators keep asking.
		{"zsh -lc 'ls *(e:rm -rf x:)'", Ask, Ask},
		{"zsh -c '=ls -la'", Ask, Ask},
		{"zsh -c 'ls ^foo'", Ask, Ask},
		{"zsh -c 'echo $HOME'", Ask, Ask},
		{"zsh -c 'sleep 1 &| ls'", Ask, Ask},
		{"zsh -c 'repeat 3 ls'", Ask, Ask},
		{"zsh -c 'noglob ls'", Ask, Ask},
		// What bash would deny is denied either way.
		{"zsh -lc 'git push --force origin main'", Deny, Deny},
		{"zsh -c 'rm -rf /'", Deny, Deny},
	})
}
