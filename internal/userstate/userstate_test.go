package userstate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSignVerifyAndKeyIsPrivate(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	sig, err := Sign("meta", []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if !Verify("meta", []byte("hello"), sig) {
		t.Fatal("own signature does not verify")
	}
	if Verify("meta", []byte("hellO"), sig) || Verify("pending", []byte("hello"), sig) || Verify("meta", []byte("hello"), "") {
		t.Fatal("a changed record, another purpose or no signature verified")
	}
	p, _ := Path(keyFile)
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file %s: %v %v", p, st.Mode(), err)
	}
	d, _ := Dir()
	if st, _ := os.Stat(d); st.Mode().Perm() != 0o700 {
		t.Fatalf("state dir mode %v", st.Mode())
	}
	if filepath.Base(d) != "sentinel" {
		t.Fatal(d)
	}
}
