package policy

import "strings"

// A read of git configuration that names where git keeps credentials:
// credential.* (a helper line may hold the password itself,
// credential.helper '!f() { echo password=…; }; f'), http.*.extraheader
// (actions/checkout persists "AUTHORIZATION: basic <token>" there) and
// keys named for tokens, passwords or secrets. Reading them shows the
// coder a secret as cat .env would (path.read-secret-file asks); reading
// other keys (user.email, remote.origin.url) stays a plain read.
//
// Listings stay allowed, by decision (issue 32, pol23): `git config
// --list`, `git config -l --show-origin`, `git config --get-regexp url`,
// `git config --get remote.origin.url`, `git remote -v`, `git remote
// get-url origin` and `cat .git/config` print a token when a remote URL
// embeds one (https://user:TOKEN@host/…) or when actions/checkout left an
// extraheader, and they are allowed in every mode, alike. Agents run them
// all day to learn where a repository pushes; asking each time would teach
// the person to approve without reading, and would protect nothing: the
// token is in the workspace's own .git/config, which any read of the
// workspace reaches and git sends on every fetch. What keeps such a token
// out of the model is redacting `scheme://user:secret@` and
// `AUTHORIZATION:` values in the output the coder sees, which is the
// output path's job, out of the policy's reach. A read that names a
// credential key asks (above): it has no purpose but the secret.

// gitConfigSecretKey reports whether a key or key pattern given to a git
// config read names a credential.
func gitConfigSecretKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range [...]string{"credential", "extraheader", "token", "password", "passwd", "smtppass", "secret", "auth"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// gitConfigReadsSecret judges a read of git configuration (keys are the
// names or patterns it asks for) and reports whether it asked.
func (x *cmdCtx) gitConfigReadsSecret(keys []string) bool {
	for _, k := range keys {
		if gitConfigSecretKey(k) {
			x.add(Ask, RulePathReadSecret, "reads git configuration that holds credentials ("+quoteShort(k)+")")
			return true
		}
	}
	return false
}
