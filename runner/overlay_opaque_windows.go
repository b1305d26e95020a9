package runner

// overlayOpaque is false: no overlay workspace on Windows.
func overlayOpaque(dir string) bool { return false }
