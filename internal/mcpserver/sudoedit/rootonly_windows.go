package sudoedit

import "errors"

// rootOnly fails: the helper is for Linux.
func rootOnly(string) error { return errors.New("sentinel mcp sudo-helper runs on Linux only") }
