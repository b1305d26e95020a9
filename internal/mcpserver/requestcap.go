package mcpserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The audit keeps a call's arguments whole only while they are small; a
// bigger (or over-the-cap) request is kept as its size, its sha256 and its
// first KiB, so no client can grow the journal by more than a few KiB a call.
const (
	keepArgsWhole = 1 << 10
	summaryHead   = 1 << 10
	maxAuditText  = 1 << 10
	// drainMax bounds how much of an over-the-cap HTTP body is read (to
	// hash it) before the connection is dropped.
	drainMax = 64 << 20
)

// ArgsSummary stands for arguments too big to keep whole in the audit.
type ArgsSummary struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Head   string `json:"head"` // the first KiB, cut at a character boundary
	// Partial is set when Size and SHA256 cover only the first Size bytes
	// (the rest was never read).
	Partial bool `json:"partial,omitempty"`
}

// MaxRequestBytes is the most one request may hold: a whole file as
// max_read_bytes allows, JSON-escaped, or — when upload_file is on — a file
// as max_upload_bytes allows (up to maxBase64Upload), in base64; and room
// for the rest. The server refuses a bigger one before decoding it, so one
// request never costs more than a small multiple of the configured limits.
func (l Limits) MaxRequestBytes() int64 {
	return max(3*l.MaxReadBytes, int64(base64.StdEncoding.EncodedLen(int(l.base64Upload)))) + 256<<10
}

// maxBase64Upload is the most upload_file takes as content_base64 in one
// request whatever max_upload_bytes says: a bigger file comes by URL.
const maxBase64Upload = 64 << 20

// requestCapRule says how the request cap is made, for refusals.
const requestCapRule = "3 × max_read_bytes, or max_upload_bytes in base64 when upload_file is on, + 256 KiB"

// summarize keeps raw whole when it is small, else its summary.
func summarize(raw []byte) (json.RawMessage, *ArgsSummary) {
	if len(raw) <= keepArgsWhole {
		return raw, nil
	}
	s := newSummer()
	s.Write(raw)
	return nil, s.summary(false)
}

// summer hashes and counts what passes and keeps its first KiB.
type summer struct {
	h    hash.Hash
	n    int64
	head []byte
}

func newSummer() *summer { return &summer{h: sha256.New()} }

func (s *summer) Write(p []byte) (int, error) {
	if room := summaryHead - len(s.head); room > 0 {
		s.head = append(s.head, p[:min(room, len(p))]...)
	}
	s.h.Write(p)
	s.n += int64(len(p))
	return len(p), nil
}

func (s *summer) summary(partial bool) *ArgsSummary {
	head := s.head
	for len(head) > 0 && !utf8.Valid(head) {
		head = head[:len(head)-1]
	}
	return &ArgsSummary{Size: s.n, SHA256: hex.EncodeToString(s.h.Sum(nil)), Head: string(head), Partial: partial}
}

// clip bounds a text kept in the audit (a reason can quote what a client sent).
func clip(s string) string {
	if len(s) <= maxAuditText {
		return s
	}
	s = s[:maxAuditText]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// oversized records a request refused at the transport for its size.
func (s *Server) oversized(sum *ArgsSummary) {
	max := s.cfg.Limits.MaxRequestBytes()
	reason := fmt.Sprintf("the request is %d bytes, over the %d-byte request cap ("+requestCapRule+")", sum.Size, max)
	if sum.Partial {
		reason = fmt.Sprintf("the request is over %d bytes, past the %d-byte request cap ("+requestCapRule+"); it was not read to its end", sum.Size, max)
	}
	c := Call{Tool: "request", Decision: DecisionDeny, Class: ClassLimit, Rule: "limits.max_read_bytes", Reason: reason, ArgsSummary: sum}
	s.audit.call(fmt.Sprintf("request deny [limit] %d bytes sha256 %s", sum.Size, sum.SHA256), c)
}

// capBody refuses a request body over the cap before anything decodes it,
// recording its summary in the audit.
func (s *Server) capBody(h http.Handler) http.Handler {
	max := s.cfg.Limits.MaxRequestBytes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
		if err != nil {
			http.Error(w, "failed to read the request body", http.StatusBadRequest)
			return
		}
		if int64(len(body)) > max {
			sum := newSummer()
			sum.Write(body)
			body = nil
			n, _ := io.Copy(sum, io.LimitReader(r.Body, drainMax))
			s.oversized(sum.summary(n == drainMax))
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("request body over %d bytes (the server's cap: "+requestCapRule+")", max), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// streamableOptions lift the SDK's own body limit (a few MiB) to the
// request cap, which capBody enforces first with an audit record: else an
// upload the config allows would be refused by the SDK over HTTP alone.
// An idle session is closed (httpsessions.go).
func (s *Server) streamableOptions() *mcp.StreamableHTTPOptions {
	return &mcp.StreamableHTTPOptions{MaxRequestBodyBytes: s.cfg.Limits.MaxRequestBytes(), SessionTimeout: s.sessionIdle()}
}
