//go:build ignore

// Command fakemodel serves the tests' fake Messages API (internal/fakemodel)
// answering "ok" to every request, prints its URL and runs until killed:
// docs/measure/agent-start.sh points the real agent CLIs at it to measure
// what one start costs. A measuring tool, not part of the product.
//
//	go run docs/measure/fakemodel.go
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

func main() {
	var s fakemodel.Script
	for range 10000 {
		s = append(s, fakemodel.Reply(fakemodel.Text("ok")))
	}
	m, err := fakemodel.Start(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(m.URL)
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	<-c
	m.Close()
}
