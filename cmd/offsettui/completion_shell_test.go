package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// The shells the completion scripts are tested in (TestShellCompletion). CI installs them
// (.ci/run) and sets OFFSETTUI_REQUIRE_SHELLS=1, so that a missing shell fails there;
// elsewhere it skips that shell.

// bashDriver completes one line as bash does on Tab: the words split at spaces and, as
// COMP_WORDBREAKS says, at ':', then the script's completion function, then COMPREPLY.
const bashDriver = `
[ -f /usr/share/bash-completion/bash_completion ] && source /usr/share/bash-completion/bash_completion
source <(offsettui completion bash)
line=$1
COMP_LINE=$line COMP_POINT=${#line} COMP_WORDS=()
read -r -a words <<<"$line"
for w in "${words[@]}"; do
  while [[ $w == *:* ]]; do COMP_WORDS+=("${w%%:*}" ":"); w=${w#*:}; done
  COMP_WORDS+=("$w")
done
[[ $line == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
__start_offsettui offsettui "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
printf '%s\n' "${COMPREPLY[@]}"
`

// zshSetup runs in an interactive zsh: the completion system with the script on fpath
// (its dump file in $ZDUMP, which makes every start after the first one fast), and compadd
// wrapped to record each candidate it is given, after its own matching, into
// $ZCAP; <<DONE>> says that the completion has ended.
const zshSetup = `
PROMPT='' RPROMPT=''
fpath=($ZFUNCS $fpath)
autoload -Uz compinit && compinit -u -d $ZDUMP
zstyle ':completion:*' insert-tab false
compadd() {
  if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a got
  builtin compadd -A got "$@"
  (( $#got )) && print -rl -- $got >>$ZCAP
  builtin compadd "$@"
}
capture-done() { print -n '<<DONE>>' }
comppostfuncs=(capture-done)
print '<<READY>>'
`

// zshDriver types the line and Tab into an interactive zsh on a pseudo-terminal and
// waits for the completion to end.
const zshDriver = `
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "source ${(q)ZSETUP}"
zpty -r z out '*<<READY>>*' || exit 3
zpty -w -n z "$1"$'\t'
zpty -r z out '*<<DONE>>*' || exit 4
zpty -d z
`

// TestShellCompletion: in bash, zsh and fish, with the script `offsettui completion SHELL`
// prints, Tab completes commands, strategies, and --group with the groups of a running
// `offsettui demo` (docs/cli.md#completion). The test binary plays offsettui.
func TestShellCompletion(t *testing.T) {
	hermetic(t)
	bin := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Under -race, a process waits a second before it exits (atexit_sleep_ms): not this one,
	// which each Tab runs.
	writeTestFile(t, filepath.Join(bin, "offsettui"), "#!/bin/sh\nGORACE=\"$GORACE atexit_sleep_ms=0\" "+
		runAsOffsettui+"=1 exec '"+exe+"' \"$@\"\n", 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	addr := startDemoProcess(t)

	var strategies []string
	for _, k := range plan.StrategyKinds {
		if strings.HasPrefix(k.Flag(), "--to-") {
			strategies = append(strategies, k.Flag())
		}
	}
	cases := []struct {
		line string
		want []string
	}{
		{"offsettui de", []string{"describe", "delete-offsets", "delete-group", "demo"}},
		{"offsettui desc", []string{"describe"}},
		{"offsettui reset --to-", strategies},
		{"offsettui describe --bootstrap-server " + addr + " --group ", demo.GroupNames()},
		{"offsettui reset --bootstrap-server " + addr + " --group bil", []string{demo.GroupBilling}},
	}
	zdir := t.TempDir() // the zsh script and the completion system's dump, made once
	shells := map[string]func(t *testing.T, line string) []string{"bash": completeInBash, "fish": completeInFish,
		"zsh": func(t *testing.T, line string) []string { return completeInZsh(t, zdir, line) }}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			if _, err := exec.LookPath(shell); err != nil {
				if os.Getenv("OFFSETTUI_REQUIRE_SHELLS") == "1" {
					t.Fatalf("%s is not installed (.ci/run installs it)", shell)
				}
				t.Skipf("%s is not installed", shell)
			}
			for _, tc := range cases {
				got := shells[shell](t, tc.line)
				if !slices.Equal(sortedSet(got), sortedSet(tc.want)) {
					t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
				}
			}
		})
	}
}

func completeInBash(t *testing.T, line string) []string {
	return shellLines(t, exec.Command("bash", "-c", bashDriver, "bash", line))
}

func completeInZsh(t *testing.T, dir, line string) []string {
	script := filepath.Join(dir, "_offsettui")
	if _, err := os.Stat(script); err != nil {
		out, err := exec.Command("offsettui", "completion", "zsh").Output()
		if err != nil {
			t.Fatalf("offsettui completion zsh: %v", err)
		}
		writeTestFile(t, script, string(out), 0o644)
	}
	setup := writeTestFile(t, filepath.Join(dir, "setup.zsh"), zshSetup, 0o644)
	capture := filepath.Join(t.TempDir(), "capture")
	cmd := exec.Command("zsh", "-f", "-c", zshDriver, "zsh", line)
	cmd.Env = append(os.Environ(), "ZFUNCS="+dir, "ZSETUP="+setup, "ZCAP="+capture, "ZDUMP="+filepath.Join(dir, "zcompdump"))
	shellLines(t, cmd)
	b, err := os.ReadFile(capture)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

func completeInFish(t *testing.T, line string) []string {
	return shellLines(t, exec.Command("fish", "--no-config", "-c", "offsettui completion fish | source; complete --do-complete=$argv[1]", line))
}

// shellLines runs a shell (within 60 s) and returns the first field of each line it
// printed: the candidate, without fish's tab-separated description.
func shellLines(t *testing.T, cmd *exec.Cmd) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	c.Env = cmd.Env
	out, err := c.Output()
	if err != nil {
		t.Fatalf("%q: %v", cmd.Args, err)
	}
	var names []string
	for l := range strings.Lines(string(out)) {
		if name, _, _ := strings.Cut(strings.TrimSpace(l), "\t"); name != "" {
			names = append(names, name)
		}
	}
	return names
}

func sortedSet(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// startDemoProcess runs `offsettui demo` until the test ends and returns the address it
// prints.
func startDemoProcess(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("offsettui", "demo")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		addr <- strings.TrimSpace(line)
	}()
	select {
	case a := <-addr:
		if a == "" {
			t.Fatal("offsettui demo printed no address")
		}
		return a
	case <-time.After(60 * time.Second):
		t.Fatal("offsettui demo printed no address within 60s")
	}
	return ""
}
