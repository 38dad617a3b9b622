package reset

import (
	"fmt"
	"sync"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Backups of a cluster's positions (offsettui backup, docs/resets.md#backing-up-a-cluster):
// one backup per group, the same CSV and manifest a reset writes before its commit, so
// `reset --restore` takes each. The positions come from one snapshot (describe's batched
// reads), not one read per group.

// Saved is what became of one group's backup: its file, or why it was not saved.
type Saved struct {
	Group string
	Path  string
	Rows  int
	Err   error
}

// SaveBackups writes one backup per group of snap into dir ("" = the default state dir)
// and returns, in the snapshot's order, what became of each. A group whose positions
// could not all be read is not saved (fail closed): a backup that silently misses
// partitions would restore less than it claims.
func (s *Service) SaveBackups(snap model.Snapshot, dir string) []Saved {
	out := make([]Saved, len(snap.Groups))
	dir, err := StateDir(dir)
	hidden := snap.Cluster.AllTopicsVisible == nil || !*snap.Cluster.AllTopicsVisible
	stamp := s.now().UTC().Format("20060102T150405.000Z")
	m := Manifest{ClusterID: snap.Cluster.ID, Bootstrap: s.clusterName(), CreatedAt: model.Stamp{Time: s.now()},
		User: s.user(), Strategy: plan.Strategy{Kind: plan.PlainBackup}, Purpose: "backup"}
	// The files are synced each, by a few writers at once (fsyncs overlap), and the
	// directory once at the end.
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range backupWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g := snap.Groups[i]
				sv := Saved{Group: g.Group}
				rows, rerr := positionRows(g)
				switch {
				case err != nil:
					sv.Err = err
				case rerr != nil:
					sv.Err = rerr
				case hidden:
					sv.Err = fmt.Errorf("topics may be hidden from this principal, and Kafka leaves their commits out without a word: run as a principal that may describe every topic")
				default:
					gm := m
					gm.Group, gm.GroupType = g.Group, g.Type
					sv.Path, sv.Err = writeBackupFiles(dir, backupName(g.Group, stamp, ""), gm, rows)
					sv.Rows = len(rows)
				}
				out[i] = sv
			}
		}()
	}
	for i := range snap.Groups {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err == nil {
		if serr := syncDir(dir); serr != nil {
			for i := range out {
				if out[i].Err == nil {
					removeBackup(out[i].Path)
					out[i].Path, out[i].Err = "", serr
				}
			}
		}
	}
	return out
}

// backupWriters is how many backups SaveBackups writes at once.
const backupWriters = 8

// positionRows are a group's positions as backup rows: committed offsets (a share
// group's start offsets) of every partition that has one.
func positionRows(g model.Group) ([]plan.CSVRow, error) {
	switch {
	case g.Error != nil:
		return nil, fmt.Errorf("read group %s: %s", g.Group, g.Error.Error())
	case g.Type == model.TypeUnknown:
		return nil, fmt.Errorf("group %s is of a type offsettui does not know: its positions cannot be read", g.Group)
	}
	rows := []plan.CSVRow{}
	for _, p := range g.Partitions {
		pos := p.Committed
		if g.Type == model.TypeShare {
			pos = p.StartOffset
		}
		if pos == nil && p.Error != nil {
			return nil, fmt.Errorf("%s-%d of group %s: %s", p.Topic, p.Partition, g.Group, p.Error.Error())
		}
		if pos != nil {
			rows = append(rows, plan.CSVRow{Topic: p.Topic, Partition: p.Partition, Offset: model.Ptr(*pos)})
		}
	}
	return rows, nil
}
