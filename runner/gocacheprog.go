package runner

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// GoCacheProgArg, as the sentinel binary's first argument, makes it the go
// command's GOCACHEPROG for building the verification seed (SRC DST
// follow): GoCacheProgMain.
const GoCacheProgArg = "__sentinel-go-cache-prog"

// GoCacheProgMain serves the go command's cache protocol on stdin and
// stdout (cmd/go/internal/cacheprog) for one seed build: every entry asked
// for is answered from dst, else copied from src — the person's own build
// cache, opened read-only and never written, not even a timestamp — after
// checking it (readSrcEntry); what the build puts goes to dst after the
// same digest check. dst ends up an ordinary Go build cache (the go
// command's own file layout), which the seed signs as it signs any. It
// returns the exit code.
func GoCacheProgMain(args []string) int {
	if len(args) != 2 || !filepath.IsAbs(args[0]) || !filepath.IsAbs(args[1]) {
		fmt.Fprintln(os.Stderr, "sentinel: "+GoCacheProgArg+" needs SRC DST, both absolute")
		return 2
	}
	if err := serveGoCacheProg(goCacheProg{src: args[0], dst: args[1]}, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sentinel: go cache program: "+err.Error())
		return 1
	}
	return 0
}

type goCacheProg struct{ src, dst string }

// cacheProgRequest and cacheProgResponse are the protocol's messages.
type cacheProgRequest struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type cacheProgResponse struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

func serveGoCacheProg(p goCacheProg, in io.Reader, out io.Writer) error {
	dec := json.NewDecoder(bufio.NewReader(in))
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	send := func(r cacheProgResponse) error {
		if err := enc.Encode(r); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := send(cacheProgResponse{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	for {
		var req cacheProgRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var body []byte
		if req.Command == "put" && req.BodySize > 0 {
			if err := dec.Decode(&body); err != nil { // a base64 JSON string
				return fmt.Errorf("put %d: body: %w", req.ID, err)
			}
		}
		res := cacheProgResponse{ID: req.ID}
		switch req.Command {
		case "get":
			e, err := p.get(req.ActionID)
			if err != nil {
				res.Miss = true
			} else {
				res.OutputID, res.Size, res.Time, res.DiskPath = e.out[:], e.size, &e.time, e.path
			}
		case "put":
			path, err := p.put(req.ActionID, req.OutputID, req.BodySize, body, time.Now())
			if err != nil {
				res.Err = err.Error()
			}
			res.DiskPath = path
		case "close":
			return send(res)
		default:
			res.Err = "unknown command " + strconv.Quote(req.Command)
		}
		if err := send(res); err != nil {
			return err
		}
	}
}

// cacheEntry is one action's entry: its output's digest, size and time, and
// where its output is.
type cacheEntry struct {
	out  [sha256.Size]byte
	size int64
	time time.Time
	path string
}

func cacheFile(root string, id []byte, kind string) string {
	h := hex.EncodeToString(id)
	return filepath.Join(root, h[:2], h+"-"+kind)
}

// get answers an action from dst, else from src, copying src's entry into
// dst so that dst holds everything the build used.
func (p goCacheProg) get(action []byte) (cacheEntry, error) {
	if len(action) != sha256.Size {
		return cacheEntry{}, errors.New("bad action ID")
	}
	if e, err := readEntry(p.dst, action, false); err == nil {
		return e, nil
	}
	e, body, err := readSrcEntry(p.src, action)
	if err != nil {
		return cacheEntry{}, err
	}
	path, err := p.put(action, e.out[:], e.size, body, e.time) // its time kept: the seed shows what came from where
	if err != nil {
		return cacheEntry{}, err
	}
	e.path = path
	return e, nil
}

// put stores body as action's output in dst, checking that it is what the
// output ID names.
func (p goCacheProg) put(action, out []byte, size int64, body []byte, at time.Time) (string, error) {
	if len(action) != sha256.Size || len(out) != sha256.Size {
		return "", errors.New("bad action or output ID")
	}
	if int64(len(body)) != size || !bytes.Equal(sha256Sum(body), out) {
		return "", errors.New("the body is not what its output ID names")
	}
	data := cacheFile(p.dst, out, "d")
	if err := writeCacheFile(data, body); err != nil {
		return "", err
	}
	line := fmt.Sprintf("v1 %x %x %20d %20d\n", action, out, size, at.UnixNano())
	if err := writeCacheFile(cacheFile(p.dst, action, "a"), []byte(line)); err != nil {
		return "", err
	}
	return data, nil
}

func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

func writeCacheFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".put-")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// entryLen is the length of an action entry: "v1 <action> <output> <size
// as 20> <time as 20>\n".
const entryLen = 2 + 1 + 64 + 1 + 64 + 1 + 20 + 1 + 20 + 1

// readEntry reads root's entry for action, exactly as the go command
// writes it; with mine set, each file must be the user's own and writable
// by nobody else (the person's cache: readSrcEntry).
func readEntry(root string, action []byte, mine bool) (cacheEntry, error) {
	b, err := readCacheFile(cacheFile(root, action, "a"), entryLen+1, mine)
	if err != nil {
		return cacheEntry{}, err
	}
	s := string(b)
	f := strings.Fields(s)
	if len(s) != entryLen || s[entryLen-1] != '\n' || len(f) != 5 || f[0] != "v1" || f[1] != hex.EncodeToString(action) {
		return cacheEntry{}, errors.New("malformed entry")
	}
	var e cacheEntry
	if n, err := hex.Decode(e.out[:], []byte(f[2])); err != nil || n != sha256.Size {
		return cacheEntry{}, errors.New("malformed output ID")
	}
	size, err1 := strconv.ParseInt(f[3], 10, 64)
	nanos, err2 := strconv.ParseInt(f[4], 10, 64)
	if err1 != nil || err2 != nil || size < 0 || nanos < 0 {
		return cacheEntry{}, errors.New("malformed size or time")
	}
	e.size, e.time, e.path = size, time.Unix(0, nanos), cacheFile(root, e.out[:], "d")
	if st, err := os.Lstat(e.path); err != nil || !st.Mode().IsRegular() || st.Size() != size {
		return cacheEntry{}, errors.New("output missing or of another size")
	}
	return e, nil
}

// readSrcEntry reads action's entry and output from the person's cache,
// read-only. The output must be the bytes its digest names (a torn or
// damaged file is a miss), and each file the user's own and not writable by
// any other user. What this cannot check is whether the output is what the
// action produces: the person's cache is trusted as every build they run
// on the host trusts it, and no coder is ever given it writable
// (sandbox.PersonGoCache).
func readSrcEntry(src string, action []byte) (cacheEntry, []byte, error) {
	e, err := readEntry(src, action, true)
	if err != nil {
		return cacheEntry{}, nil, err
	}
	const maxOutput = 1 << 30
	if e.size > maxOutput {
		return cacheEntry{}, nil, errors.New("output too large")
	}
	body, err := readCacheFile(e.path, e.size+1, true)
	if err != nil {
		return cacheEntry{}, nil, err
	}
	if int64(len(body)) != e.size || !bytes.Equal(sha256Sum(body), e.out[:]) {
		return cacheEntry{}, nil, errors.New("output does not match its digest")
	}
	return e, body, nil
}

// readCacheFile reads at most max bytes of a regular file, never following
// a symlink and never changing it (not even go's own "mark used" mtime).
func readCacheFile(path string, max int64, mine bool) ([]byte, error) {
	f, err := openReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if mine && !ownedAndPrivate(st) {
		return nil, fmt.Errorf("%s is not the user's own or is writable by others", path)
	}
	return io.ReadAll(io.LimitReader(f, max))
}
