package service

import "path/filepath"

// SetTestScope limits the scanner to agents under dir (see scopeRoot);
// a dir that is not absolute is ignored. Only a test build calls it
// (cmd/sentinel built with -tags sentineltest,
// cmd/sentinel/testhooks_sentineltest.go): a test's service with
// require_launcher on must end only that test's agents.
func SetTestScope(dir string) {
	if filepath.IsAbs(dir) {
		scopeRoot = filepath.Clean(dir)
	}
}
