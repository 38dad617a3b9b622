package timeaxis

import (
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Committers outside the group, seen across snapshots (model.DetectCommitter): the moves
// of a group's committed offsets between samples taken while it had no members.

// noQuiet marks a group whose latest sample had members, or could not be read.
const noQuiet int64 = -1

// noteMembers keeps when the group's current run without members began. A group that
// could not be read may have members: the run starts again.
func (gh *groupHistory) noteMembers(g *model.Group, at int64) {
	switch {
	case g.Error != nil || len(g.Members) > 0 || g.Type == model.TypeShare:
		gh.quiet = noQuiet
	case gh.quiet == noQuiet:
		gh.quiet = at
	}
}

// moves returns, for each pair of consecutive samples both taken in the group's current
// run without members, the move of its committed offsets between them, if any: each is
// at least one commit made by a client outside the group.
func (gh *groupHistory) moves() []model.CommitSeen {
	if gh.quiet == noQuiet {
		return nil
	}
	var out []model.CommitSeen
	for k := 1; k < len(gh.at); k++ {
		if gh.at[k-1] < gh.quiet {
			continue
		}
		changed, moved := false, int64(0)
		for i := range gh.parts {
			was, now := gh.parts[i].vals[2*(k-1)], gh.parts[i].vals[2*k]
			switch {
			case now < 0 || was == Unread: // no commit now, or not known before
			case was == NoCommit:
				changed = true
			case now != was:
				changed = true
				moved += max(0, now-was)
			}
		}
		if changed {
			out = append(out, model.CommitSeen{At: time.UnixMilli(gh.at[k]), After: time.UnixMilli(gh.at[k-1]),
				Moved: moved, Source: model.SeenTimeAxis})
		}
	}
	return out
}

// committer is what the history, with the group's commit records when the snapshot read
// them, says of a committer outside g at now; nil while g has members.
func (gh *groupHistory) committer(g *model.Group, now time.Time) *model.Committer {
	if len(g.Members) > 0 || g.Error != nil || gh.quiet == noQuiet {
		return nil
	}
	seen := gh.moves()
	if g.CommitLog != nil {
		seen = append(seen, g.CommitLog.SeenWithoutMembers(g.Type, time.UnixMilli(gh.quiet))...)
	}
	return model.DetectCommitter(seen, now)
}
