package gitindex

import "testing"

// A removed cache-tree is not told (the coder's own commit writes one:
// naming it would add a line to every run that committed); every other
// cache is, and so is a cache-tree that could not be removed.
func TestARemovedCacheTreeIsNotTold(t *testing.T) {
	for _, c := range []struct {
		cache Cache
		told  bool
	}{
		{Cache{Sig: "TREE", What: caches["TREE"], New: true}, false},
		{Cache{Sig: "TREE", What: caches["TREE"]}, false},
		{Cache{Sig: "TREE", What: caches["TREE"], Err: "locked"}, true},
		{Cache{Sig: "UNTR", What: caches["UNTR"]}, true},
		{Cache{Sig: "FSMN", What: caches["FSMN"], New: true}, true},
	} {
		if got := c.cache.Told(); got != c.told {
			t.Errorf("%+v: told %v, want %v", c.cache, got, c.told)
		}
	}
}
