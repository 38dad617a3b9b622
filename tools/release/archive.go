package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Entry is one file of an archive: its name inside, where its bytes are, and
// its mode.
type Entry struct {
	Name, Source string
	Mode         os.FileMode
}

// ArchiveName is a target's archive: offsettui_VERSION_OS_ARCH.tar.gz, .zip for
// windows.
func ArchiveName(version string, t Target) string {
	ext := ".tar.gz"
	if t.OS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("offsettui_%s_%s_%s%s", version, t.OS, t.Arch, ext)
}

// WriteArchive writes entries to path as a tar.gz or, for a .zip path, a zip:
// in name order, owned by root, every time set to mtime, so one commit gives
// the same bytes.
func WriteArchive(path string, entries []Entry, mtime time.Time) error {
	sorted := append([]Entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var buf bytes.Buffer
	var err error
	if filepath.Ext(path) == ".zip" {
		err = writeZip(&buf, sorted, mtime)
	} else {
		err = writeTarGz(&buf, sorted, mtime)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func writeTarGz(w io.Writer, entries []Entry, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		b, err := os.ReadFile(e.Source)
		if err != nil {
			return err
		}
		h := &tar.Header{Typeflag: tar.TypeReg, Name: e.Name, Mode: int64(e.Mode.Perm()), Size: int64(len(b)),
			ModTime: mtime, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, entries []Entry, mtime time.Time) error {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.DefaultCompression)
	})
	for _, e := range entries {
		b, err := os.ReadFile(e.Source)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: mtime.UTC()}
		h.SetMode(e.Mode.Perm())
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(b); err != nil {
			return err
		}
	}
	return zw.Close()
}

// gzipBytes compresses b with no name and no time in the header.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := gz.Write(b); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
