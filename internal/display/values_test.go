package display

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// TestFormatTotalLag: a whole total as it is, a lower bound as "≥ N" (≥ 0 too: what was
// read shows no lag, the rest is unknown), and the unknown word only when nothing is known.
func TestFormatTotalLag(t *testing.T) {
	num := func(n int64) string { return text.Num(&n) }
	for _, c := range []struct {
		g    model.Group
		want string
	}{
		{model.Group{TotalLag: model.Ptr(int64(12))}, "12"},
		{model.Group{TotalLag: model.Ptr(int64(0))}, "0"},
		{model.Group{TotalLagAtLeast: model.Ptr(int64(5))}, "≥ 5"},
		{model.Group{TotalLagAtLeast: model.Ptr(int64(0))}, "≥ 0"},
		{model.Group{}, "?"},
	} {
		if got := FormatTotalLag(&c.g, num, "?"); got != c.want {
			t.Errorf("total %s, at least %s: %q, want %q", text.Num(c.g.TotalLag), text.Num(c.g.TotalLagAtLeast), got, c.want)
		}
	}
}

// RestoreText words each way a member's report of a task can be: both offsets, one of them,
// or an end below the offset; a standby says how far behind it is; nothing reported says
// nothing.
func TestRestoreText(t *testing.T) {
	task := func(role string, o, e *int64) model.TaskOffsets {
		r := model.TaskOffsets{Subtopology: "0", Partition: 1, Role: role, ChangelogOffset: o, ChangelogEndOffset: e}
		if o != nil && e != nil && *e >= *o {
			r.RestoreLag = model.Ptr(*e - *o)
		}
		return r
	}
	n := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		m    model.Member
		want string
	}{
		{model.Member{TaskOffsets: []model.TaskOffsets{}}, ""},
		{model.Member{RestoreLag: n(18800), TaskOffsets: []model.TaskOffsets{task(model.RoleActive, n(1200), n(20000))}},
			"restore lag 18,800 (0_1 active at 1,200 of 20,000)"},
		{model.Member{TaskOffsets: []model.TaskOffsets{task(model.RoleActive, n(0), nil)}}, "restore lag unknown (0_1 active at 0, end not reported)"},
		{model.Member{TaskOffsets: []model.TaskOffsets{task(model.RoleActive, nil, n(7))}}, "restore lag unknown (0_1 active, offset not reported, end 7)"},
		{model.Member{TaskOffsets: []model.TaskOffsets{task(model.RoleActive, n(30), n(20))}}, "restore lag unknown (0_1 active at 30 of 20, lag unknown)"},
		{model.Member{TaskOffsets: []model.TaskOffsets{task(model.RoleStandby, n(40), n(50))}}, "changelogs (0_1 standby at 40 of 50, 10 behind)"},
	} {
		if got := RestoreText(&c.m); got != c.want {
			t.Errorf("RestoreText = %q, want %q", got, c.want)
		}
	}
}
