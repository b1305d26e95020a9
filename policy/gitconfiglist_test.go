package policy

import "testing"

// TestGitConfigListingsDecision holds the decision in gitconfigsecret.go:
// every spelling of listing the repository's remotes and configuration is
// allowed alike, with the sandbox on and off; every spelling that names a
// credential key asks (issue 32, pol23 item 3).
func TestGitConfigListingsDecision(t *testing.T) {
	var rows []onOff
	rows = append(rows, sameOnOff(Allow,
		"git config --list", "git config -l", "git config -l --show-origin", "git config --list --show-origin --show-scope",
		"git config --get-regexp url", "git config --get-regexp '^remote\\.'", "git config --get remote.origin.url",
		"git config remote.origin.url", "git remote -v", "git remote get-url origin", "git remote get-url --all origin",
		"cat .git/config", "grep url .git/config", "head -20 .git/config", "git config --get user.email",
	)...)
	rows = append(rows, sameOnOff(Ask,
		"git config --get credential.helper", "git config --get http.extraheader",
		"git config --get-all http.https://github.com/.extraheader", "git config --get-regexp credential",
		"git config --get-regexp extraheader", "git config --get-regexp '.*token.*'",
	)...)
	checkOnOff(t, rows)
}
