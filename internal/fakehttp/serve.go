package fakehttp

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
)

// Serve serves h on a free loopback port until the returned server is
// closed, and gives its root URL (http://127.0.0.1:PORT). name (the fake's
// package) starts the error when no port can be had.
func Serve(name string, h http.HandlerFunc) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("%s: listen on loopback: %w", name, err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return srv, "http://" + ln.Addr().String(), nil
}

// WriteJSON answers with status code and v encoded as JSON.
func WriteJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
