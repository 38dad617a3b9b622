package chart

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// The chart and the plain manifests, relative to the repository's root.
const (
	ChartDir     = "deploy/helm/offsettui"
	ManifestsDir = "deploy/kubernetes"
)

// manifestsHeader heads every file of deploy/kubernetes/.
const manifestsHeader = "# Rendered from deploy/helm/offsettui with its default values for the release %q in the\n" +
	"# namespace %q by `go run ./cmd/chart manifests` in tools/; not edited by hand\n" +
	"# (TestManifestsAreCurrent). Set the image tag and the flags in the Deployment's args.\n"

// ManifestFiles are deploy/kubernetes/'s files by name: one per object, named
// after its template, numbered in install order.
func ManifestFiles(chartDir string) (map[string]string, error) {
	ms, err := Render(chartDir, nil, DefaultRelease)
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for i, m := range ms {
		name := fmt.Sprintf("%02d-%s", i+1, filepath.Base(m.Source))
		files[name] = fmt.Sprintf(manifestsHeader, DefaultRelease.Name, DefaultRelease.Namespace) + m.Content
	}
	return files, nil
}

// WriteManifests replaces the YAML files of out with ManifestFiles.
func WriteManifests(chartDir, out string) ([]string, error) {
	files, err := ManifestFiles(chartDir)
	if err != nil {
		return nil, err
	}
	old, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var names []string
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}
