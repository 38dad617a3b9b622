package model

import (
	"testing"
	"time"
)

func TestExplainGrammar(t *testing.T) {
	p := &GroupPartition{Topic: "outbox", Status: StatusExpired, Committed: Ptr[int64](29), Lost: Ptr[int64](1), Low: Ptr[int64](30), High: Ptr[int64](40)}
	if got, want := Explain("fanout", p, nil, time.Hour), "1 record (29..29) was deleted before fanout read it"; got[:len(want)] != want {
		t.Errorf("Explain = %q, want it to start %q", got, want)
	}
}
