//go:build unix

package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// putSrcEntry writes an entry the way the go command does: the output under
// its digest, the action's line naming it.
func putSrcEntry(t *testing.T, root string, action [32]byte, body string, perm os.FileMode) [32]byte {
	t.Helper()
	out := sha256.Sum256([]byte(body))
	for path, b := range map[string]string{
		cacheFile(root, out[:], "d"):    body,
		cacheFile(root, action[:], "a"): fmt.Sprintf("v1 %x %x %20d %20d\n", action, out, len(body), time.Unix(1000, 0).UnixNano()),
	} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(b), perm); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, perm)
	}
	return out
}

// snapshot is every file under root with its mode, time and bytes.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		st, _ := os.Lstat(p)
		data, _ := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %v %d %q\n", p, st.Mode(), st.ModTime().UnixNano(), data)
		return nil
	})
	return b.String()
}

// serve sends reqs (puts carry their body) to the program and returns its
// answers by request ID.
func serveReqs(t *testing.T, p goCacheProg, reqs ...cacheProgRequest) map[int64]cacheProgResponse {
	t.Helper()
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for i, r := range reqs {
		r.ID = int64(i + 1)
		enc.Encode(r)
		if r.Command == "put" {
			enc.Encode(bytes.Repeat([]byte("p"), int(r.BodySize))) // base64, as go sends it
		}
	}
	enc.Encode(cacheProgRequest{ID: 99, Command: "close"})
	var out bytes.Buffer
	if err := serveGoCacheProg(p, &in, &out); err != nil {
		t.Fatal(err)
	}
	got := map[int64]cacheProgResponse{}
	dec := json.NewDecoder(&out)
	for dec.More() {
		var r cacheProgResponse
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got[r.ID] = r
	}
	if len(got[0].KnownCommands) == 0 {
		t.Fatalf("the program did not announce its commands first: %+v", got[0])
	}
	return got
}

// The seed's cache program answers from the person's cache without writing
// it — not an entry, not a timestamp, not a mode — copies what it used into
// the seed's cache, and stores the build's own outputs there only.
func TestSeedReadsThePersonsCacheAndNeverWritesIt(t *testing.T) {
	t.Parallel()
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "cache")
	hit := [32]byte{1}
	out := putSrcEntry(t, src, hit, "compiled fmt", 0o644)
	old := time.Now().Add(-48 * time.Hour) // go would "mark used" a file this old
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error { return os.Chtimes(p, old, old) })
	before := snapshot(t, src)

	body := bytes.Repeat([]byte("p"), 5)
	putOut := sha256.Sum256(body)
	got := serveReqs(t, goCacheProg{src: src, dst: dst},
		cacheProgRequest{Command: "get", ActionID: hit[:]},
		cacheProgRequest{Command: "get", ActionID: bytes.Repeat([]byte{2}, 32)},
		cacheProgRequest{Command: "put", ActionID: bytes.Repeat([]byte{3}, 32), OutputID: putOut[:], BodySize: 5},
		cacheProgRequest{Command: "get", ActionID: hit[:]})

	if after := snapshot(t, src); after != before {
		t.Fatalf("the person's cache changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	for _, id := range []int64{1, 4} {
		r := got[id]
		if r.Miss || !bytes.Equal(r.OutputID, out[:]) || !strings.HasPrefix(r.DiskPath, dst) {
			t.Fatalf("get %d of the person's entry: %+v (want a hit served from %s)", id, r, dst)
		}
		if b, _ := os.ReadFile(r.DiskPath); string(b) != "compiled fmt" {
			t.Fatalf("the seed's copy holds %q", b)
		}
	}
	if !got[2].Miss {
		t.Fatalf("an action in neither cache was a hit: %+v", got[2])
	}
	if r := got[3]; r.Err != "" || !strings.HasPrefix(r.DiskPath, dst) {
		t.Fatalf("put: %+v", r)
	}
	if _, err := os.Stat(cacheFile(src, bytes.Repeat([]byte{3}, 32), "a")); err == nil {
		t.Fatal("a put reached the person's cache")
	}
	if e, err := readEntry(dst, hit[:], false); err != nil || !e.time.Equal(time.Unix(1000, 0)) {
		t.Fatalf("the seed's entry for the copied action: %+v %v (want the person's time kept)", e, err)
	}
}

// An entry of the person's cache that is damaged, someone else's to write,
// or reached through a link is a miss: the seed compiles that package
// itself instead of taking it.
func TestSeedTakesNoDoubtfulEntry(t *testing.T) {
	t.Parallel()
	cases := map[string]func(t *testing.T, src string, action [32]byte){
		"output not what its digest names": func(t *testing.T, src string, a [32]byte) {
			out := putSrcEntry(t, src, a, "compiled testing", 0o644)
			os.WriteFile(cacheFile(src, out[:], "d"), []byte("PLANTED! testing"), 0o644) // same size
		},
		"output group-writable": func(t *testing.T, src string, a [32]byte) {
			putSrcEntry(t, src, a, "compiled testing", 0o664)
		},
		"output a symlink": func(t *testing.T, src string, a [32]byte) {
			out := putSrcEntry(t, src, a, "compiled testing", 0o644)
			elsewhere := filepath.Join(t.TempDir(), "x")
			os.WriteFile(elsewhere, []byte("compiled testing"), 0o644)
			os.Remove(cacheFile(src, out[:], "d"))
			os.Symlink(elsewhere, cacheFile(src, out[:], "d"))
		},
		"entry for another action": func(t *testing.T, src string, a [32]byte) {
			out := putSrcEntry(t, src, [32]byte{9}, "compiled testing", 0o644)
			os.MkdirAll(filepath.Dir(cacheFile(src, a[:], "a")), 0o755)
			line := fmt.Sprintf("v1 %x %x %20d %20d\n", [32]byte{9}, out, 16, 1)
			os.WriteFile(cacheFile(src, a[:], "a"), []byte(line), 0o644)
		},
		"torn output": func(t *testing.T, src string, a [32]byte) {
			out := putSrcEntry(t, src, a, "compiled testing", 0o644)
			os.WriteFile(cacheFile(src, out[:], "d"), []byte("compiled"), 0o644)
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			src, dst := t.TempDir(), t.TempDir()
			action := [32]byte{7}
			plant(t, src, action)
			got := serveReqs(t, goCacheProg{src: src, dst: dst}, cacheProgRequest{Command: "get", ActionID: action[:]})
			if !got[1].Miss {
				t.Fatalf("a doubtful entry was taken: %+v", got[1])
			}
			if _, err := os.Stat(cacheFile(dst, action[:], "a")); err == nil {
				t.Fatal("a doubtful entry reached the seed")
			}
		})
	}
}

// A put whose body is not what its output ID names is refused.
func TestSeedRefusesAMislabelledPut(t *testing.T) {
	t.Parallel()
	dst := t.TempDir()
	wrong := sha256.Sum256([]byte("other"))
	got := serveReqs(t, goCacheProg{src: t.TempDir(), dst: dst},
		cacheProgRequest{Command: "put", ActionID: bytes.Repeat([]byte{3}, 32), OutputID: wrong[:], BodySize: 5})
	if got[1].Err == "" {
		t.Fatalf("a mislabelled put was stored: %+v", got[1])
	}
}
