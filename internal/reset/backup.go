package reset

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// A backup is two files written before any commit: NAME.csv holds the offsets
// (topic,partition,offset; empty where there was no commit — Kafka's --from-file
// form, so Kafka's tools can read it) and NAME.manifest.json says whose offsets
// they are and how to know the CSV is whole: group, cluster id, time, strategy,
// row count and the SHA-256 of the CSV's bytes (docs/resets.md).

// manifestFormat names the manifest's layout; a restore refuses any other.
const manifestFormat = "offsettui-backup/1"

// Manifest describes one backup file.
type Manifest struct {
	Format    string        `json:"format"`
	Group     string        `json:"group"`
	ClusterID *string       `json:"clusterId"`
	Bootstrap string        `json:"bootstrap"`
	CreatedAt model.Stamp   `json:"createdAt"`
	User      string        `json:"user"`
	Strategy  plan.Strategy `json:"strategy"`
	// Purpose is "backup" (before a reset) or "undo" (only what a partly
	// applied reset wrote).
	Purpose string `json:"purpose"`
	// GroupType is the type of the group the positions are of (model.TypeShare …; absent
	// from backups older than it): a share group's are start offsets, written back with
	// AlterShareGroupOffsets.
	GroupType string `json:"groupType"`
	Rows      int    `json:"rows"`
	SHA256    string `json:"sha256"`
}

// Backup is a backup read back and checked against its manifest.
type Backup struct {
	Path     string
	Manifest Manifest
	Rows     []plan.CSVRow
}

// manifestPath is the manifest beside a backup CSV.
func manifestPath(csvPath string) string {
	return strings.TrimSuffix(csvPath, ".csv") + ".manifest.json"
}

// maxNamePart bounds the group part of a backup's file name, so the name stays
// within every file system's 255-byte limit whatever the group is called.
const maxNamePart = 100

// backupName is a file name for group's backup at stamp: the group made safe
// and cut short, plus a hash of the whole name whenever it had to be changed, so
// two groups never share a name.
func backupName(group, stamp, suffix string) string {
	return model.FileNamePart(group, maxNamePart) + "-" + stamp + suffix + ".csv"
}

// writeBackup writes rows and their manifest as new files in dir and syncs them
// and the directory; on any failure nothing is left behind.
func writeBackup(dir, name string, m Manifest, rows []plan.CSVRow) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("backup directory %s: %w", dir, err)
	}
	csv, meta, err := backupBytes(m, rows)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	if err := writeNew(path, csv); err != nil {
		return "", err
	}
	if err := writeNew(manifestPath(path), meta); err != nil {
		os.Remove(path)
		return "", err
	}
	if err := syncDir(dir); err != nil {
		removeBackup(path)
		return "", err
	}
	return path, nil
}

// backupBytes returns a backup's two files: the CSV of rows, and m completed with the
// CSV's row count and SHA-256.
func backupBytes(m Manifest, rows []plan.CSVRow) (csv, manifest []byte, err error) {
	var b bytes.Buffer
	if err := plan.FormatOffsetsCSV(&b, rows); err != nil {
		return nil, nil, err
	}
	m.Format, m.Rows, m.SHA256 = manifestFormat, len(rows), sha256Hex(b.Bytes())
	meta, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return b.Bytes(), append(meta, '\n'), nil
}

// sha256Hex is the SHA-256 of b in hex, as every file offsettui checks itself by names it
// (a backup's manifest, an archive's index, a plan file).
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// writeNew creates path (never overwriting), writes b and syncs it; a file that
// could not be written whole is removed.
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("backup file: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("write backup %s: %w", path, err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync backup directory %s: %w", dir, err)
	}
	return nil
}

// removeBackup removes a backup that was never used (nothing was written).
func removeBackup(path string) error {
	err := os.Remove(path)
	if merr := os.Remove(manifestPath(path)); err == nil {
		err = merr
	}
	return err
}

// LoadBackup reads the backup of group for a restore: path is a backup's CSV, its
// manifest beside it, or an archive `offsettui backup` wrote (archive.go), from which
// group's backup is taken. It refuses a backup unless it is exactly what offsettui
// wrote: the manifest must name the CSV's row count and SHA-256, so a file cut short
// (even at a line end) or edited is refused. A CSV's manifest may name another group:
// the restore's plan says so (backupMismatch).
func LoadBackup(path, group string) (Backup, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Backup{}, fmt.Errorf("--restore: %w", err)
	}
	mp := manifestPath(path)
	meta, err := os.ReadFile(mp)
	if err != nil && (isArchive(raw) || strings.HasSuffix(path, archiveSuffix)) {
		return loadArchived(path, raw, group) // a CSV has its manifest beside it; an archive none
	}
	if err != nil {
		return Backup{}, fmt.Errorf("--restore %s: its manifest %s cannot be read (%v): without it offsettui cannot tell whether the file is whole or whose offsets it holds. "+
			"To commit the file's offsets as an ordinary, clamped reset, use --from-file", path, mp, err)
	}
	return checkBackup(path, path, mp, raw, meta)
}

// checkBackup checks a backup's CSV (named name in messages) against its manifest (named
// mp) and parses its rows; path is the file the backup was read from.
func checkBackup(path, name, mp string, csv, meta []byte) (Backup, error) {
	var m Manifest
	if err := json.Unmarshal(meta, &m); err != nil || m.Format != manifestFormat {
		return Backup{}, fmt.Errorf("--restore %s: %s is not an offsettui backup manifest (format %q)", path, mp, m.Format)
	}
	if sha256Hex(csv) != m.SHA256 {
		return Backup{}, fmt.Errorf("--restore %s: the file does not match its manifest (SHA-256 differs): it was cut short or edited, and is refused. "+
			"To commit hand-edited offsets, use --from-file (clamped, like Kafka's)", path)
	}
	if len(csv) == 0 && m.Rows == 0 {
		// The backup of a group that had no commits: whole, and nothing to restore
		// (the plan says so).
		return Backup{Path: path, Manifest: m}, nil
	}
	st, err := plan.FileStrategy(plan.Restore, name, bytes.NewReader(csv))
	if err != nil {
		return Backup{}, err
	}
	if len(st.File) != m.Rows {
		return Backup{}, fmt.Errorf("--restore %s: %d rows, but its manifest says %d: refused", path, len(st.File), m.Rows)
	}
	return Backup{Path: path, Manifest: m, Rows: st.File}, nil
}

// Strategy is the restore strategy of the backup's rows.
func (b Backup) Strategy() plan.Strategy {
	return plan.Strategy{Kind: plan.Restore, Raw: b.Path, File: b.Rows, GroupType: b.Manifest.GroupType}
}
