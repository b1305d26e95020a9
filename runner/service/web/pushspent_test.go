package web

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// A push token spent before the service restarted is still spent after:
// the nonce is kept in the state dir until the token expires.
func TestPushTokenStaysSpentAcrossARestart(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	tok, err := signPush(pushClaim{ID: "1", Decision: "approve", Bind: "b", Exp: time.Now().Add(time.Minute).Unix(), Nonce: newNonce()})
	if err != nil {
		t.Fatal(err)
	}
	var before usedNonces
	if _, err := before.spend(tok, time.Now()); err != nil {
		t.Fatalf("first use: %v", err)
	}
	var after usedNonces // a new service process
	if _, err := after.spend(tok, time.Now()); err == nil {
		t.Fatal("after a restart, the spent token was accepted again")
	}
	other, _ := signPush(pushClaim{ID: "2", Decision: "deny", Bind: "b", Exp: time.Now().Add(time.Minute).Unix(), Nonce: newNonce()})
	if _, err := after.spend(other, time.Now()); err != nil {
		t.Fatalf("an unspent token after a restart: %v", err)
	}
}

// A nonce that cannot be written down is not accepted: a token is never
// usable twice because the state dir refused a write.
func TestPushTokenRefusedWhenItCannotBeRemembered(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	tok, err := signPush(pushClaim{ID: "1", Decision: "approve", Bind: "b", Exp: time.Now().Add(time.Minute).Unix(), Nonce: newNonce()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := userstate.Path(spentFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(p, 0o700); err != nil { // a directory where the file goes
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(p)); err != nil {
		t.Fatal(err)
	}
	var u usedNonces
	if _, err := u.spend(tok, time.Now()); err == nil {
		t.Fatal("a token whose spending could not be recorded was accepted")
	}
}
