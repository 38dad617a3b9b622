package release

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// MetadataFile names dist/release.json, what a release built: tests and
// scripts read the version and the files from it rather than guessing names.
const MetadataFile = "release.json"

// Metadata is the content of dist/release.json.
type Metadata struct {
	Version  string   `json:"version"`
	Commit   string   `json:"commit"`
	Date     string   `json:"date"`
	Targets  []string `json:"targets"`
	Archives []string `json:"archives"`
	Packages []string `json:"packages"`
	Image    string   `json:"image"`
	Formula  string   `json:"formula"`
}

// WriteMetadata writes dist/release.json.
func WriteMetadata(dir string, m Metadata) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, MetadataFile), append(b, '\n'), 0o644)
}

// ReadMetadata reads dist/release.json.
func ReadMetadata(dir string) (Metadata, error) {
	var m Metadata
	b, err := os.ReadFile(filepath.Join(dir, MetadataFile))
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}
