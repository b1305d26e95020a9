package helperbin

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Asking the helper for its stamp starts a program: a few milliseconds
// paid by every sandboxed command and every run, measured as a fifth of
// `sentinel sandbox run -- true`. A stamp that matched is remembered in
// the user's state directory (which no coder can write), signed with the
// user's record key, for exactly that file: its path, device, inode, size,
// modification and change times, mode and owner, and the stamp wanted. Any
// write to the helper or its replacement changes the change time or the
// inode, and a new sentinel build wants another stamp, so either asks the
// helper again. Only matches are kept: a mismatch is asked every time.

const stampCachePurpose = "helper stamp cache v1"

type stampCacheFile struct {
	Key string `json:"key"`
	Sig string `json:"sig,omitempty"`
}

// stampKey names the file at h as it is now, with the stamp wanted ("" when
// it cannot be told apart from another file).
func stampKey(h string, st os.FileInfo, want string) string {
	sys, ok := filestamp.Of(st)
	if !ok {
		return ""
	}
	sum := sha256.New()
	fmt.Fprintf(sum, "path %s\ndev %d ino %d size %d mode %o uid %d\nmtime %d.%d ctime %d.%d\nwant %s\n",
		h, sys.Dev, sys.Ino, st.Size(), sys.Mode, sys.UID,
		sys.MtimeSec, sys.MtimeNsec, sys.CtimeSec, sys.CtimeNsec, want)
	return hex.EncodeToString(sum.Sum(nil))
}

// stampMatched says whether the helper with key was found to match before.
func stampMatched(key string) bool {
	if key == "" {
		return false
	}
	p, err := userstate.Path("helper-stamp.json")
	if err != nil {
		return false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	var f stampCacheFile
	if json.Unmarshal(b, &f) != nil || f.Key != key {
		return false
	}
	return userstate.Verify(stampCachePurpose, []byte(f.Key), f.Sig)
}

// rememberMatch keeps key as a helper that matched (best effort: without
// it the next start asks the helper again).
func rememberMatch(key string) {
	if key == "" {
		return
	}
	sig, err := userstate.Sign(stampCachePurpose, []byte(key))
	if err != nil {
		return
	}
	b, _ := json.Marshal(stampCacheFile{Key: key, Sig: sig})
	_ = userstate.WriteFile("helper-stamp.json", b) // a cache: a failed write only costs the next start
}
