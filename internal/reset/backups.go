package reset

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model/plan"
)

// Backups lists the backups of group in the backup directory, newest first:
// those whose manifest names the group (a reset's backup, or the undo file of
// a partly applied one), and the archives `offsettui backup` wrote there that
// hold a whole backup of it. Only the manifests are read here; a restore checks
// the file against its manifest (LoadBackup) when it is planned. A missing
// directory means no backups.
func (s *Service) Backups(group string) ([]plan.Backup, error) {
	dir, err := StateDir(s.BackupDir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups in %s: %w", dir, err)
	}
	var out []plan.Backup
	for _, e := range entries {
		if isArchiveName(e.Name()) && e.Type().IsRegular() {
			path := filepath.Join(dir, e.Name())
			if b, err := LoadBackup(path, group); err == nil {
				out = append(out, plan.Backup{Path: path, Taken: b.Manifest.CreatedAt.Time})
			}
			continue
		}
		name, ok := strings.CutSuffix(e.Name(), ".manifest.json")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var m Manifest
		if json.Unmarshal(raw, &m) != nil || m.Format != manifestFormat || m.Group != group {
			continue
		}
		out = append(out, plan.Backup{Path: filepath.Join(dir, name+".csv"), Taken: m.CreatedAt.Time})
	}
	slices.SortFunc(out, func(a, b plan.Backup) int { return b.Taken.Compare(a.Taken) })
	return out, nil
}
