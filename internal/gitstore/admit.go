package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// How a file of the scratch dir enters a store: copied into the store's
// staging dir (one per store and run, inside the store, which the coder
// cannot reach), proven there, and only then renamed to its name.

// stage is the store's staging dir for this run, made when first needed:
// inside the store, on its file system (a rename from it is atomic); git
// ignores it, and the coder cannot reach it (the store is read-only
// inside the sandbox).
func (m *mover) stage(st Store) (string, error) {
	if d, ok := m.stages[st.Dir]; ok {
		return d, nil
	}
	d, err := os.MkdirTemp(st.Dir, "tmp_sentinel_")
	if err != nil {
		return "", err
	}
	m.stages[st.Dir] = d
	return d, nil
}

func (m *mover) removeStages() {
	for _, d := range m.stages {
		_ = os.RemoveAll(d)
	}
}

// admit copies src (of From) into the store's staging dir, proves the
// copy with prove ("" when it is what it should be) and renames it to to.
func (m *mover) admit(st Store, src, to string, prove func(staged string) string) (ok bool, why string, err error) {
	stage, err := m.stage(st)
	if err != nil {
		return false, "", err
	}
	staged := filepath.Join(stage, filepath.Base(filepath.Dir(to))+filepath.Base(to))
	defer os.Remove(staged) // gone once renamed; a copy not proven goes
	if err := copyFile(m.r, src, staged, -1); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return true, "", nil // gone from the scratch dir since: nothing to move
		}
		return false, "unreadable: " + err.Error(), nil
	}
	if why := prove(staged); why != "" {
		return false, why, nil
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return false, "", err
	}
	if present(to) {
		return true, "", nil
	}
	return true, "", m.Rename(staged, to)
}

// admitPack is admit for a pack and its index: both copied (each at most
// MaxPack bytes), the pack verified against its index, the pack renamed
// in before its index; when the index cannot follow, the pack is taken
// back out, so the store never keeps a pack without its index.
func (m *mover) admitPack(ctx context.Context, st Store, pack, idx string) (ok bool, why string, err error) {
	stage, err := m.stage(st)
	if err != nil {
		return false, "", err
	}
	sp, si := filepath.Join(stage, filepath.Base(pack)), filepath.Join(stage, filepath.Base(idx))
	defer os.Remove(sp)
	defer os.Remove(si)
	for _, c := range [][2]string{{pack, sp}, {idx, si}} {
		if err := copyFile(m.r, c[0], c[1], m.MaxPack); err != nil {
			return false, "unreadable: " + err.Error(), nil
		}
	}
	var size int64
	if fi, err := os.Stat(sp); err == nil {
		size = fi.Size()
	}
	bound := m.VerifyBound(size)
	vctx, cancel := context.WithTimeout(ctx, bound)
	err = m.VerifyPack(vctx, st, si)
	timedOut := errors.Is(vctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	cancel()
	if timedOut {
		return false, fmt.Sprintf("its verification did not end within %s and was stopped (look at it before you copy it into your repository)", bound), nil
	}
	if err != nil {
		return false, "its objects do not match its index", nil
	}
	dir := filepath.Join(st.Dir, "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, "", err
	}
	dp, di := filepath.Join(dir, filepath.Base(pack)), filepath.Join(dir, filepath.Base(idx))
	placedPack := false
	if !present(dp) {
		if err := m.Rename(sp, dp); err != nil {
			return false, "", err
		}
		placedPack = true
	}
	if present(di) {
		return true, "", nil
	}
	if err := m.Rename(si, di); err != nil {
		if placedPack {
			if rerr := os.Remove(dp); rerr != nil {
				err = errors.Join(err, fmt.Errorf("%s is in the store without its index and could not be taken out: %w", dp, rerr))
			}
		}
		return false, "", err
	}
	return true, "", nil
}

// copyFile copies the regular file src of r (no link followed out of r)
// to the new file dst, read-only as git makes its objects; max, when not
// negative, bounds how many bytes it copies (a file that grows past it
// while copied is refused).
func copyFile(r *os.Root, src, dst string, max int64) error {
	in, err := r.OpenFile(src, os.O_RDONLY|oNonblock, 0) // a fifo swapped in does not block
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return err
	}
	var from io.Reader = in
	if max >= 0 {
		from = io.LimitReader(in, max+1)
	}
	n, err := io.Copy(out, from)
	if err == nil && max >= 0 && n > max {
		err = fmt.Errorf("%s is larger than %s", src, sizeText(max))
	}
	if err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
