package release

import (
	"bytes"
	"fmt"
	"text/template"
)

// Homepage is the project's home, and the base of the release downloads.
const Homepage = "https://github.com/offsettui/offsettui"

// DownloadURL is where a release's archive is published: the GitHub release of
// its tag (a snapshot's tag does not exist; its formula is for checking only).
func DownloadURL(s Stamp, archive string) string {
	return fmt.Sprintf("%s/releases/download/v%s/%s", Homepage, s.Version, archive)
}

// BrewArchive is one archive the formula can install.
type BrewArchive struct {
	OS, Arch, URL, SHA256 string
}

var formula = template.Must(template.New("formula").Parse(`# typed: false
# frozen_string_literal: true

# Written by tools/cmd/release for offsettui {{.Version}}; not edited by hand.
class Offsettui < Formula
  desc "Where every Kafka consumer group really stands, and guarded offset resets"
  homepage "{{.Homepage}}"
  version "{{.Version}}"
{{range $os := .Systems}}
  on_{{if eq $os "darwin"}}macos{{else}}linux{{end}} do
{{- range $.Archives}}{{if eq .OS $os}}
    on_{{if eq .Arch "arm64"}}arm{{else}}intel{{end}} do
      url "{{.URL}}"
      sha256 "{{.SHA256}}"
    end
{{- end}}{{end}}
  end
{{end}}
  def install
    bin.install "offsettui"
    bash_completion.install "completions/offsettui.bash" => "offsettui"
    zsh_completion.install "completions/_offsettui"
    fish_completion.install "completions/offsettui.fish"
    man1.install Dir["manpages/*.1.gz"]
  end

  test do
    assert_match "offsettui #{version} ", shell_output("#{bin}/offsettui --version")
    assert_match "fanout", shell_output("#{bin}/offsettui describe --demo")
  end
end
`))

// Formula is the Homebrew formula of the darwin and linux archives given.
func Formula(s Stamp, archives []BrewArchive) ([]byte, error) {
	var systems []string
	for _, os := range []string{"darwin", "linux"} {
		for _, a := range archives {
			if a.OS == os {
				systems = append(systems, os)
				break
			}
		}
	}
	var b bytes.Buffer
	err := formula.Execute(&b, struct {
		Version, Homepage string
		Systems           []string
		Archives          []BrewArchive
	}{s.Version, Homepage, systems, archives})
	return b.Bytes(), err
}
