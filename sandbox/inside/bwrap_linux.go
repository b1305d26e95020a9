package inside

// BwrapArgs are bubblewrap's arguments for sp: the mount plan (planMounts)
// in its words, the same root the ns backend builds itself.
func BwrapArgs(sp Spec) []string {
	plan := planMounts(sp)
	// --as-pid-1: the helper is the namespace's pid 1 and reaps, as in the
	// ns backend. With bwrap's own reaper as pid 1, bwrap's outer process
	// exits on the status the reaper sends it without waiting for the
	// reaper, which was left behind in the caller's process group (a zombie
	// handed to init) after every command.
	a := []string{
		"--unshare-user", "--unshare-pid", "--as-pid-1", "--unshare-net", "--unshare-ipc", "--unshare-uts",
		"--unshare-cgroup-try", "--die-with-parent",
		"--dev", "/dev", "--proc", "/proc",
	}
	for _, m := range plan {
		switch m.kind {
		case mountBindRW:
			a = append(a, "--bind", m.src, m.dst)
		case mountBindRO:
			a = append(a, "--ro-bind", m.src, m.dst)
		case mountHideDir:
			a = append(a, "--tmpfs", m.dst, "--remount-ro", m.dst)
		case mountHideFile:
			a = append(a, "--ro-bind", m.src, m.dst)
		case mountSymlink:
			a = append(a, "--symlink", m.src, m.dst)
		case mountTmpfs:
			a = append(a, "--tmpfs", m.dst)
		case mountRemountRO:
			a = append(a, "--remount-ro", m.dst)
		}
	}
	return append(a, "--remount-ro", "/", "--chdir", sp.Dir)
}
