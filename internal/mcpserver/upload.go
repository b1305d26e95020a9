package mcpserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"
)

// uploadArgs is what the upload_file tool takes.
type uploadArgs struct {
	Path          string `json:"path" jsonschema:"where the file goes: a name relative to upload_base, or an absolute path under it"`
	ContentBase64 string `json:"content_base64,omitempty" jsonschema:"the file's bytes, base64 (standard encoding)"`
	URL           string `json:"url,omitempty" jsonschema:"an http(s) URL on a public host to fetch the file from (when the server allows upload_urls)"`
	Overwrite     bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file (its old content is kept as a backup)"`
}

// upload writes a file into upload_base from base64 content or a URL
// fetched through the SSRF guard (ssrf.go).
func (s *Server) upload(ctx context.Context, a uploadArgs) (outcome, error) {
	c := s.cfg
	if c.uploadBase == "" {
		return outcome{}, &Refusal{Class: ClassOpDisabled, Rule: "upload_base", Reason: "this server has no upload_base", Use: "ask the person to set upload_base (a directory under an rw path); or write text files with edit"}
	}
	if (a.ContentBase64 == "") == (a.URL == "") {
		return outcome{}, &Refusal{Class: ClassBadInput, Rule: "upload_file", Reason: "upload_file needs exactly one of content_base64 and url", Use: "send content_base64, or url"}
	}
	dest := a.Path
	if dest != "" && !filepath.IsAbs(dest) {
		dest = filepath.Join(c.uploadBase, dest)
	}
	pl, err := c.ResolveEntry(dest, AccessReadWrite)
	if err != nil {
		return outcome{}, err
	}
	if !within(pl.Abs, c.uploadBase) || pl.Abs == c.uploadBase {
		return outcome{}, &Refusal{Class: ClassPathNotAllowed, Rule: "upload_base", Reason: pl.Abs + " is not inside upload_base " + c.uploadBase, Use: "give a file name inside " + c.uploadBase}
	}
	var data []byte
	how := ""
	if a.URL != "" {
		if !c.UploadURLs {
			return outcome{}, &Refusal{Class: ClassOpDisabled, Rule: "upload_urls", Reason: "this server does not fetch URLs", Use: "send the bytes as content_base64, or ask the person to set upload_urls = true"}
		}
		if data, err = s.fetcher().fetch(ctx, a.URL); err != nil {
			return outcome{}, err
		}
		how = " from " + a.URL
	} else {
		enc := strings.TrimSpace(a.ContentBase64)
		most := c.Limits.Base64UploadBytes()
		if int64(base64.StdEncoding.DecodedLen(len(enc))) > most+2 {
			return outcome{}, base64TooBig(int64(base64.StdEncoding.DecodedLen(len(enc))), c.Limits)
		}
		if data, err = base64.StdEncoding.DecodeString(enc); err != nil {
			return outcome{}, &Refusal{Class: ClassBadInput, Rule: "upload_file", Reason: "content_base64: " + err.Error(), Use: "encode the bytes with standard base64 (with padding)"}
		}
		if int64(len(data)) > most {
			return outcome{}, base64TooBig(int64(len(data)), c.Limits)
		}
	}
	r, err := s.reach(pl, AccessReadWrite)
	if err != nil {
		return outcome{}, err
	}
	defer r.close()
	backup := ""
	if st, err := r.lstat(); err == nil {
		if !a.Overwrite || !st.Mode().IsRegular() {
			return outcome{}, &Refusal{Class: ClassBadInput, Reason: pl.Abs + " exists", Use: "choose another name, or set overwrite (not for a directory or symlink)"}
		}
		dir, name, err := s.aboutToDestroy("upload_file", pl.Abs, true)
		if err != nil {
			return outcome{}, err
		}
		if backup, err = s.keepCopy(r, dir, name); err != nil {
			return outcome{}, err
		}
	}
	if err := s.replaceFile(r, data, 0o644); err != nil {
		return outcome{backup: backup}, err
	}
	return outcome{text: fmt.Sprintf("wrote %s (%d bytes)%s", pl.Abs, len(data), how) + kept(backup), bytes: len(data), backup: backup, rule: "upload_base"}, nil
}

// fetcher is the guarded URL fetcher this server uses.
func (s *Server) fetcher() *fetcher {
	if s.fetch != nil {
		return s.fetch
	}
	return &fetcher{max: s.cfg.Limits.MaxUploadBytes, timeout: s.cfg.Limits.ExecTimeoutDuration()}
}

// base64TooBig refuses content_base64 over what one request carries:
// max_upload_bytes, or maxBase64Upload when that is less.
func base64TooBig(n int64, l Limits) *Refusal {
	if l.Base64UploadBytes() == l.MaxUploadBytes {
		return uploadTooBig(n, l.MaxUploadBytes)
	}
	return &Refusal{Class: ClassLimit, Rule: "upload_file content_base64", Reason: fmt.Sprintf("content_base64 carries at most %d bytes in one request (max_upload_bytes is %d): %d bytes; nothing written", l.Base64UploadBytes(), l.MaxUploadBytes, n),
		Use: "send a file this big by url (when the server allows upload_urls)"}
}
