package filestamp

import (
	"os"
	"syscall"
)

// Of is fi's stamp; ok is false when fi carries no stat record.
func Of(fi os.FileInfo) (s Stamp, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}, false
	}
	return Stamp{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), UID: int(st.Uid), GID: int(st.Gid), Mode: uint32(st.Mode), Nlink: uint64(st.Nlink),
		MtimeSec: int64(st.Mtimespec.Sec), MtimeNsec: int64(st.Mtimespec.Nsec),
		CtimeSec: int64(st.Ctimespec.Sec), CtimeNsec: int64(st.Ctimespec.Nsec),
	}, true
}
