package wire

import (
	"maps"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

func TestLowestVersions(t *testing.T) {
	if lowestVersions(nil) != nil {
		t.Error("no broker answered: want nil")
	}
	got := lowestVersions([]map[int16]int16{{9: 10, 16: 5, 77: 1}, {9: 7, 16: 5}, {9: 8, 16: 4, 77: 1}})
	want := model.APIVersions{9: 7, 16: 4}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v (77 is on two brokers of three)", got, want)
	}
}
