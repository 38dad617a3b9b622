#!/usr/bin/env bash
# Checks the release scripts/release.sh wrote into dist/ (docs/testing.md, "The release"):
#   - sha256sum -c on checksums.txt
#   - the linux/amd64 binary taken out of its archive runs --version (the version, commit and
#     date of dist/release.json, in docs/cli.md's format) and describe --demo
#   - the amd64 deb's file list holds the binary, the man pages and the completions
#   - the Homebrew formula is valid Ruby (ruby -c; it cannot be installed here)
#   - `go install github.com/offsettui/offsettui/cmd/offsettui@VERSION` names a main package of
#     this module (a release tag cannot be fetched here: only that much is checked)
# The image and the chart are checked by the tests of tools/ (imagetest, chart).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
dist=$(cd "${1:-dist}" && pwd)
field() { sed -n "s/^  \"$1\": \"\(.*\)\",\{0,1\}$/\1/p" "$dist/release.json"; }
version=$(field version)
commit=$(field commit)
date=$(field date)
[ -n "$version" ] && [ -n "$commit" ] && [ -n "$date" ] || { echo "release-check: $dist/release.json names no version, commit or date" >&2; exit 1; }

echo "-- sha256sum -c checksums.txt"
(cd "$dist" && sha256sum -c checksums.txt)

echo "-- the linux/amd64 binary from its archive"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$dist/offsettui_${version}_linux_amd64.tar.gz" -C "$tmp"
got=$("$tmp/offsettui" --version)
want="offsettui $version go[0-9.]* commit ${commit:0:12} $date"
echo "$got"
if ! [[ "$got" =~ ^offsettui\ ${version//./\\.}\ go[0-9.]+\ commit\ ${commit:0:12}\ $date$ ]]; then
  echo "release-check: --version printed '$got', want '$want'" >&2
  exit 1
fi
"$tmp/offsettui" describe --demo >"$tmp/describe.out"
grep -q fanout "$tmp/describe.out" || { cat "$tmp/describe.out"; echo "release-check: describe --demo shows no group fanout" >&2; exit 1; }
echo "describe --demo: $(wc -l <"$tmp/describe.out") lines"

echo "-- the deb's files"
deb=$(ls "$dist"/offsettui_*_amd64.deb)
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's#^\./#/#' >"$tmp/deb.files"
for want in /usr/bin/offsettui /usr/share/man/man1/offsettui.1.gz /usr/share/bash-completion/completions/offsettui \
  /usr/share/zsh/vendor-completions/_offsettui /usr/share/fish/vendor_completions.d/offsettui.fish; do
  grep -qx "$want" "$tmp/deb.files" || { cat "$tmp/deb.files"; echo "release-check: $(basename "$deb") lacks $want" >&2; exit 1; }
done
echo "$(basename "$deb"): the binary, $(grep -c '^/usr/share/man/man1/.*\.gz$' "$tmp/deb.files") man pages, 3 completions"

echo "-- the Homebrew formula"
if command -v ruby >/dev/null 2>&1; then
  ruby -c "$dist/homebrew/offsettui.rb"
else
  echo "release-check: ruby is not installed: the formula's syntax is not checked" >&2
  exit 1
fi

echo "-- go install github.com/offsettui/offsettui/cmd/offsettui@VERSION"
mod=$(go list -m)
name=$(go list -f '{{.Name}}' ./cmd/offsettui)
[ "$mod/cmd/offsettui" = "github.com/offsettui/offsettui/cmd/offsettui" ] && [ "$name" = main ] ||
  { echo "release-check: go install's path is $mod/cmd/offsettui, package $name" >&2; exit 1; }
echo "github.com/offsettui/offsettui/cmd/offsettui is package main of module $mod"
echo "release-check: $version passed"
