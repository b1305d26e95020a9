package policy

import "strings"

// A read of git configuration that names where git keeps credentials:
// credential.* (a helper line may hold the password itself,
// credential.helper '!f() { echo password=…; }; f'), http.*.extraheader
// (actions/checkout persists "AUTHORIZATION: basic <token>" there) and
// keys named for tokens, passwords or secrets. Reading them shows the
// coder a secret as cat .env would (path.read-secret-file asks); reading
// other keys (user.email, remote.origin.url) stays a plain read.

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
