package reset

import (
	"archive/tar"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// A backup archive is what `offsettui backup` writes (docs/resets.md#backing-up-a-cluster):
// one tar file holding, per group, the same NAME.csv and NAME.manifest.json a reset writes
// (`tar -xf` gives the files `reset --restore` takes one by one), and last an index naming
// every member with its size and SHA-256. One file for the whole run rather than two per
// group: creating and syncing a file costs a disk milliseconds, and a cluster has thousands
// of groups. `reset --restore ARCHIVE --group G` takes G's backup from it after checking the
// whole archive, so a cut or an edit anywhere in it refuses every restore from it.

// archiveFormat names the index's layout; a restore refuses any other.
const archiveFormat = "offsettui-backup-archive/1"

// archiveIndexName is the archive's last member.
const archiveIndexName = "offsettui-backup-index.json"

// archiveIndex is the archive's last member: what the archive holds.
type archiveIndex struct {
	Format string `json:"format"`
	// Members are the archive's other members, in order.
	Members []archiveMember `json:"members"`
	// Groups name each group's CSV member; its manifest is the member manifestPath names.
	Groups []archivedGroup `json:"groups"`
	// Before is the SHA-256 of every byte before the index's header: the members with
	// their tar headers and padding.
	Before string `json:"before"`
}

type archiveMember struct {
	Name   string `json:"name"`
	Size   int    `json:"size"`
	SHA256 string `json:"sha256"`
}

type archivedGroup struct {
	Group string `json:"group"`
	CSV   string `json:"csv"`
}

// archivedBackup is one group's backup on its way into an archive.
type archivedBackup struct {
	group, name   string // name: the CSV member's
	csv, manifest []byte
}

// An archive's file name: archivePrefix, the run's stamp, archiveSuffix.
const archivePrefix, archiveSuffix = "offsettui-backup-", ".tar"

// archiveName is the archive's file name for a run at stamp.
func archiveName(stamp string) string { return archivePrefix + stamp + archiveSuffix }

// isArchiveName reports whether a file's name is one archiveName gives.
func isArchiveName(name string) bool {
	return strings.HasPrefix(name, archivePrefix) && strings.HasSuffix(name, archiveSuffix)
}

// writeArchive writes backups as a new archive at path and syncs it; on any failure
// nothing is left behind. The caller syncs the directory.
func writeArchive(path string, backups []archivedBackup, at time.Time) (err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("backup archive: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			err = fmt.Errorf("write backup archive %s: %w", path, err)
		}
	}()
	before := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(f, before), 1<<20)
	tw := tar.NewWriter(bw)
	idx := archiveIndex{Format: archiveFormat, Members: make([]archiveMember, 0, 2*len(backups)),
		Groups: make([]archivedGroup, 0, len(backups))}
	add := func(name string, b []byte) error {
		if err := tw.WriteHeader(memberHeader(name, len(b), at)); err != nil {
			return err
		}
		_, err := tw.Write(b)
		return err
	}
	names, groups := map[string]bool{archiveIndexName: true}, map[string]bool{}
	for _, b := range backups {
		if names[b.name] || groups[b.group] {
			return fmt.Errorf("group %s or its file name %s comes twice", b.group, b.name)
		}
		names[b.name], groups[b.group] = true, true
		idx.Groups = append(idx.Groups, archivedGroup{Group: b.group, CSV: b.name})
		for _, m := range []struct {
			name string
			b    []byte
		}{{b.name, b.csv}, {manifestPath(b.name), b.manifest}} {
			if err := add(m.name, m.b); err != nil {
				return err
			}
			idx.Members = append(idx.Members, archiveMember{Name: m.name, Size: len(m.b), SHA256: sha256Hex(m.b)})
		}
	}
	if err := tw.Flush(); err != nil { // the last member's padding
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	idx.Before = hex.EncodeToString(before.Sum(nil))
	meta, err := indexBytes(idx)
	if err != nil {
		return err
	}
	if err := add(archiveIndexName, meta); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Sync()
}

// indexBytes is the index as written, one line of JSON: a restore takes no other bytes
// for it.
func indexBytes(idx archiveIndex) ([]byte, error) {
	b, err := json.Marshal(idx)
	return append(b, '\n'), err
}

// isArchive reports whether raw is a tar archive (ustar or pax: the magic at 257).
func isArchive(raw []byte) bool {
	return len(raw) >= 512 && bytes.HasPrefix(raw[257:], []byte("ustar"))
}

// loadArchived takes group's backup out of the archive raw read from path, once the
// whole archive is checked (readArchive).
func loadArchived(path string, raw []byte, group string) (Backup, error) {
	members, idx, err := readArchive(raw)
	if err != nil {
		return Backup{}, fmt.Errorf("--restore %s: %w: it was cut short or edited, and is refused. "+
			"Each group's CSV and manifest still in it can be taken out (tar -xf %s) and restored on its own, checked against its manifest", path, err, path)
	}
	for _, g := range idx.Groups {
		if g.Group == group {
			mp := manifestPath(g.CSV)
			return checkBackup(path, path+":"+g.CSV, path+":"+mp, members[g.CSV], members[mp])
		}
	}
	return Backup{}, fmt.Errorf("--restore %s: the archive holds no backup of group %s (it holds the backups of %d groups; tar -tf %s lists them). "+
		"To put another group's positions on %s, take that group's two files out (tar -xf %s NAME.csv NAME.manifest.json) "+
		"and pass --restore NAME.csv with --allow-other-group", path, group, len(idx.Groups), path, group, path)
}

// checkArchive reads the archive at path back and checks it whole, as a restore does; it
// must hold n backups. Their bytes are the ones backupBytes made (the index holds their
// SHA-256), so each is as restorable as a reset's backup.
func checkArchive(path string, n int) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	_, idx, err := readArchive(raw)
	if err == nil && len(idx.Groups) != n {
		err = fmt.Errorf("it holds %d backups, not %d", len(idx.Groups), n)
	}
	return err
}

// readArchive reads an archive whole and checks it: it ends with tar's two end blocks and
// nothing after, every member's padding is zeros, its last member is the index, written
// exactly as writeArchive writes it (its header too), the bytes before the index have the
// SHA-256 it gives, every other member is in the index with its size and SHA-256, and the
// other way round, and each group's manifest names the group. It returns the members by
// name.
func readArchive(raw []byte) (map[string][]byte, archiveIndex, error) {
	var idx archiveIndex
	if len(raw) < 1024 || !allZero(raw[len(raw)-1024:]) {
		return nil, idx, errors.New("the archive does not end with tar's end-of-archive blocks")
	}
	tm, err := readMembers(raw)
	if err != nil {
		return nil, idx, err
	}
	if idx, err = readIndex(raw, tm); err != nil {
		return nil, idx, err
	}
	if err := checkIndexed(idx, tm); err != nil {
		return nil, idx, err
	}
	return tm.byName, idx, nil
}

// tarMembers are an archive's members as read: by name and in order, and where the
// last one's header begins and what it says (it should be the index's).
type tarMembers struct {
	byName  map[string][]byte
	order   []string
	last    int
	lastHdr *tar.Header
}

// readMembers reads every member of the tar archive raw: each a regular file, named
// once, followed by padding of zeros, and nothing after the end.
func readMembers(raw []byte) (tarMembers, error) {
	r := bytes.NewReader(raw)
	tr := tar.NewReader(r)
	tm := tarMembers{byName: map[string][]byte{}}
	at := 0 // where the next member's header begins
	for {
		start := at
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return tm, fmt.Errorf("not a whole tar archive (%v)", err)
		}
		if h.Typeflag != tar.TypeReg {
			return tm, fmt.Errorf("member %q is not a regular file", h.Name)
		}
		if _, dup := tm.byName[h.Name]; dup {
			return tm, fmt.Errorf("member %q appears twice", h.Name)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return tm, fmt.Errorf("member %q cannot be read (%v)", h.Name, err)
		}
		// tar pads a member to 512 bytes with zeros, and reading skips the padding:
		// it is checked here, so that no byte of the archive goes unchecked.
		end := len(raw) - r.Len()
		at = min(len(raw), (end+511)/512*512)
		if pad := raw[end:at]; !allZero(pad) {
			return tm, fmt.Errorf("member %q is followed by bytes that are not tar's padding", h.Name)
		}
		tm.byName[h.Name] = b
		tm.order = append(tm.order, h.Name)
		tm.last, tm.lastHdr = start, h
	}
	if r.Len() != 0 {
		return tm, fmt.Errorf("%d bytes follow the archive's end", r.Len())
	}
	return tm, nil
}

// readIndex parses the archive's last member, the index, and checks that it and its
// header are as writeArchive writes them, and that the bytes before it have the
// SHA-256 it gives.
func readIndex(raw []byte, tm tarMembers) (archiveIndex, error) {
	var idx archiveIndex
	if len(tm.order) == 0 || tm.order[len(tm.order)-1] != archiveIndexName {
		return idx, fmt.Errorf("its last member is not the index %s", archiveIndexName)
	}
	meta := tm.byName[archiveIndexName]
	if err := json.Unmarshal(meta, &idx); err != nil || idx.Format != archiveFormat {
		return idx, fmt.Errorf("its index is not an offsettui backup archive index (format %q)", idx.Format)
	}
	if b, err := indexBytes(idx); err != nil || !bytes.Equal(b, meta) {
		return idx, errors.New("its index is not as offsettui writes it")
	}
	last := tm.last
	if sha256Hex(raw[:last]) != idx.Before {
		return idx, errors.New("the bytes before its index do not match the index's SHA-256 of them")
	}
	if want, err := indexHeader(len(meta), tm.lastHdr.ModTime); err != nil || len(raw) < last+512 || !bytes.Equal(raw[last:last+512], want) {
		return idx, errors.New("its index's tar header is not as offsettui writes it")
	}
	return idx, nil
}

// checkIndexed checks that the index lists every other member, in order, with its size
// and SHA-256, and nothing else, and that each group's entry names a CSV and a manifest
// of that group.
func checkIndexed(idx archiveIndex, tm tarMembers) error {
	if len(idx.Members) != len(tm.order)-1 {
		return fmt.Errorf("its index lists %d members, and it holds %d", len(idx.Members), len(tm.order)-1)
	}
	for i, m := range idx.Members {
		b := tm.byName[tm.order[i]]
		if tm.order[i] != m.Name || len(b) != m.Size || sha256Hex(b) != m.SHA256 {
			return fmt.Errorf("member %q does not match its index entry (name, size or SHA-256)", tm.order[i])
		}
	}
	if 2*len(idx.Groups) != len(idx.Members) {
		return fmt.Errorf("its index names %d groups for %d members", len(idx.Groups), len(idx.Members))
	}
	for _, g := range idx.Groups {
		_, okCSV := tm.byName[g.CSV]
		meta, okMeta := tm.byName[manifestPath(g.CSV)]
		if !okCSV || !okMeta || !namesGroup(meta, g.Group) {
			return fmt.Errorf("its index entry of group %q does not match the archive's members", g.Group)
		}
	}
	return nil
}

// namesGroup reports whether a manifest as backupBytes writes it names group: its bytes
// are the index's already (their SHA-256), so the group's field is matched as written
// rather than parsed, a thousand manifests at a time.
func namesGroup(manifest []byte, group string) bool {
	g, err := json.Marshal(group)
	return err == nil && bytes.Contains(manifest, append(append([]byte("\n  \"group\": "), g...), ",\n"...))
}

// indexHeader is the tar header block writeArchive writes for an index of size bytes
// made at modTime: the bytes before the index are checked by their SHA-256, and the
// index's own header by being this, byte for byte.
func indexHeader(size int, modTime time.Time) ([]byte, error) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	if err := tw.WriteHeader(memberHeader(archiveIndexName, size, modTime)); err != nil {
		return nil, err
	}
	if b.Len() != 512 { // the header is written at once, the content would follow
		return nil, fmt.Errorf("the index's header takes %d bytes", b.Len())
	}
	return b.Bytes(), nil
}

// memberHeader is the tar header of a member of the archive.
func memberHeader(name string, size int, modTime time.Time) *tar.Header {
	return &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(size), Mode: 0o600, ModTime: modTime.Truncate(time.Second)}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
