//go:build sentineltest

package service

import (
	"os"
	"path/filepath"
)

// Test builds only (go build -tags sentineltest): SENTINEL_TEST_SERVICE_SCOPE
// limits the service's scanner to agents under one directory, so that a
// test's service with require_launcher on ends only that test's agents.
func init() {
	if d := os.Getenv("SENTINEL_TEST_SERVICE_SCOPE"); filepath.IsAbs(d) {
		scopeRoot = filepath.Clean(d)
	}
}
