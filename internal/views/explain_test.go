package views

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

func TestExplainGrammar(t *testing.T) {
	p := &model.GroupPartition{Topic: "outbox", Status: model.StatusExpired, Committed: model.Ptr[int64](29), Lost: model.Ptr[int64](1), Low: model.Ptr[int64](30), High: model.Ptr[int64](40)}
	if got, want := Explain("fanout", p, nil, time.Hour), "1 record (29..29) was deleted before fanout read it"; got[:len(want)] != want {
		t.Errorf("Explain = %q, want it to start %q", got, want)
	}
}
