// Package filestamp owns reading what identifies a file beyond its size
// and modification time — device, inode, owner, group and change time —
// from an os.FileInfo, one small file per platform. It must not open or
// stat anything itself: callers hand it what they already looked at.
package filestamp

// Stamp is what a FileInfo says about a file's identity.
type Stamp struct {
	Dev, Ino  uint64
	UID, GID  int
	Mode      uint32 // the raw st_mode (type and permission bits)
	Nlink     uint64 // how many names the file has (hard links)
	MtimeSec  int64
	MtimeNsec int64
	CtimeSec  int64 // the inode's change time: any write, chmod, chown or rename
	CtimeNsec int64
}
