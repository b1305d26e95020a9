package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// The two model APIs are asked through this one small JSON-over-HTTP call
// rather than their vendors' SDKs: Sentinel makes one request shape to
// each, and the SDKs (with every other endpoint they carry) were most of
// the sentinel binary's size, build time and start-up.

// retryBackoff is the wait before the one retry of a failed request.
var retryBackoff = 500 * time.Millisecond

// postJSON sends body as JSON to url with header and decodes a 2xx answer
// into out. A connection failure or a 408, 409, 429 or 5xx answer is
// retried once (as the SDKs did with one retry); ctx ends the call.
func postJSON(ctx context.Context, url string, header http.Header, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("encode the request: %w", err)
	}
	var last error
	for attempt := 0; attempt < 2; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(last, ctx.Err())
			case <-time.After(retryBackoff):
			}
		}
		retry, err := postOnce(ctx, url, header, data, out)
		if err == nil || !retry || ctx.Err() != nil {
			return err
		}
		last = err
	}
	return last
}

// postOnce is one request; retry says whether a failure may pass on a
// second try.
func postOnce(ctx context.Context, url string, header http.Header, data []byte, out any) (retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return false, fmt.Errorf("POST %s: %w", url, err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return true, fmt.Errorf("POST %s: %w", url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return true, fmt.Errorf("POST %s: read the answer: %w", url, err)
	}
	if resp.StatusCode/100 != 2 {
		s := resp.StatusCode
		return s == 408 || s == 409 || s == 429 || s >= 500,
			fmt.Errorf("POST %s: %s %s", url, resp.Status, apiErrorText(raw))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return false, fmt.Errorf("POST %s: the answer is not the expected JSON: %w", url, err)
	}
	return false, nil
}

// apiErrorText is the message of an API error body ({"error":{"message":…}}
// in both APIs), else the body's start, made safe to print.
func apiErrorText(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := strings.TrimSpace(string(raw))
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return textsafe.Line(msg)
}

// endpoint joins an API base URL and a path.
func endpoint(base, path string) string {
	return strings.TrimSuffix(base, "/") + "/" + strings.TrimPrefix(path, "/")
}
