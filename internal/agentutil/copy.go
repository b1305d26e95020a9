package agentutil

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// CopyPrivate copies the regular file src to dst (mode 0600, parents 0700);
// a missing src is no error and copies nothing. It copies an agent's login
// and settings into a run's own home (sandbox run --agent, ACP agents).
func CopyPrivate(src, dst string) error {
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("not a regular file")
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	out, err := nofollow.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600) // never through a link
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
