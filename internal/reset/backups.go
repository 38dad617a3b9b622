package reset

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// backupStamp is the time in a backup's name (writeBackup).
const backupStamp = "20060102T150405.000Z"

// Backups lists the backups written for group in the backup directory, newest
// first: files named "<group>-<time>.csv" as writeBackup names them. Group
// names with characters other than [A-Za-z0-9._-] share a file prefix with
// similar names; the audit log, which records each backup's group, settles
// those: a backup the log gives to another group is left out. A missing
// directory means no backups.
func (s *Service) Backups(group string) ([]model.Backup, error) {
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
	pattern := regexp.MustCompile(`^` + regexp.QuoteMeta(unsafeName.ReplaceAllString(group, "_")) + `-(\d{8}T\d{6}\.\d{3}Z)\.csv$`)
	owner := auditOwners(dir)
	var out []model.Backup
	for _, e := range entries {
		m := pattern.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if g, ok := owner[path]; ok && g != group {
			continue
		}
		at, err := time.Parse(backupStamp, m[1])
		if err != nil {
			continue
		}
		out = append(out, model.Backup{Path: path, Taken: at})
	}
	slices.SortFunc(out, func(a, b model.Backup) int { return b.Taken.Compare(a.Taken) })
	return out, nil
}

// auditOwners reads which group each backup in the audit log belongs to; an
// unreadable log gives nothing (the file names still tell).
func auditOwners(dir string) map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(filepath.Join(dir, "audit.log"))
	if err != nil {
		return out
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		var e auditEntry
		if json.Unmarshal([]byte(line), &e) == nil && e.Backup != nil {
			out[*e.Backup] = e.Group
		}
	}
	return out
}
