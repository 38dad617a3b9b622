package logread

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// TestTimestampCacheIsBounded: moving commits add entries for as long as a TUI
// runs; past the bound the cache keeps only the latest answer.
func TestTimestampCacheIsBounded(t *testing.T) {
	c := New(nil)
	now := time.Now()
	for i := range maxCachedTimestamps + 10 {
		c.remember(map[model.TPO]time.Time{{TP: model.TP{Topic: "t"}, Offset: int64(i)}: now})
	}
	if n := len(c.tsSeen); n > maxCachedTimestamps {
		t.Fatalf("cache holds %d entries, bound %d", n, maxCachedTimestamps)
	}
	last := model.TPO{TP: model.TP{Topic: "t"}, Offset: int64(maxCachedTimestamps + 9)}
	if _, ok := c.tsSeen[last]; !ok {
		t.Error("the latest answer is not cached")
	}
}
