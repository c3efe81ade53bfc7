// Command newcomer walks through README.md as a newcomer would: it runs
// every command of the README's example sessions in a folder (a fresh
// clone, see scripts/newcomer.sh) and compares each output with the one
// the README shows.
//
// README conventions it reads:
//
//   - A fenced code block without an info string whose first line starts
//     with "$ " is a session: each "$ " line is a command run with bash in
//     the folder, the lines after it (up to the next "$ " line) its expected
//     output, standard output and standard error as a terminal shows them.
//   - In an expected output, a line "..." stands for any number of lines;
//     numbers followed by "ms" (timings) are not compared.
//   - A command ending in "&" runs in the background until the end of the
//     walk; its expected output is compared once it has printed that many
//     lines (10 s at most).
//   - A command must exit 0, unless its line shows its status (echo "exit $?").
//   - A fenced block whose info string is "LANG FILE" (```turtle listing.ttl)
//     is written to FILE in the folder before the following sessions run.
//   - Blocks with another info string (```sh, ```yaml) are not run: they
//     show commands that need a model endpoint or a long run.
//
// Usage: newcomer [-dir DIR] [-print] README.md. With -print it prints every
// command with its actual output, for updating the README.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/isolda/isolda/internal/testkit/syncbuf"
)

// step is one command of a session and the output the README shows.
type step struct {
	line    int // line of the command in the README
	command string
	want    []string
}

// item is a session's step or a file to write.
type item struct {
	step *step
	file string
	text string
}

// parse reads the sessions and files of a README, in order.
func parse(r io.Reader) ([]item, error) {
	var items []item
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	inBlock, session := false, false
	var info string
	var body []string
	var cur *step
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if !inBlock {
				inBlock, info, body, session, cur = true, strings.TrimSpace(strings.TrimPrefix(line, "```")), nil, false, nil
				continue
			}
			inBlock = false
			if f := strings.Fields(info); len(f) == 2 {
				items = append(items, item{file: f[1], text: strings.Join(body, "\n") + "\n"})
			}
			continue
		}
		if !inBlock {
			continue
		}
		body = append(body, line)
		if info != "" {
			continue
		}
		if len(body) == 1 {
			session = strings.HasPrefix(line, "$ ")
		}
		if !session {
			continue
		}
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			cur = &step{line: n, command: cmd}
			items = append(items, item{step: cur})
			continue
		}
		cur.want = append(cur.want, line)
	}
	if inBlock {
		return nil, errors.New("README ends inside a code block")
	}
	return items, sc.Err()
}

// timings matches the figures that change from run to run.
var timings = regexp.MustCompile(`[0-9]+(\.[0-9]+)? ?ms\b`)

// normalize masks the volatile parts of a line.
func normalize(s string) string { return timings.ReplaceAllString(s, "N ms") }

// match reports whether got matches want, where a want line "..." matches
// any number of lines.
func match(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if match(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && normalize(want[0]) == normalize(got[0]) && match(want[1:], got[1:])
}

// lines splits output into lines without the final newline.
// demoNote is the line isolda prints when a command reads the embedded
// demo graph with standard input neither piped nor a terminal.
const demoNote = "isolda: no FILE and nothing piped: reading the embedded demo graph"

// dropDemoNote removes demo-graph notes from an output.
func dropDemoNote(ls []string) []string {
	kept := ls[:0:0]
	for _, l := range ls {
		if !strings.HasPrefix(l, demoNote) {
			kept = append(kept, l)
		}
	}
	return kept
}

func lines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func main() { os.Exit(run()) }

// run walks the README and returns the exit status: 0 when every output
// is as the README shows it, 1 when one differs, 2 on bad usage.
func run() int {
	dir := flag.String("dir", ".", "folder to run the commands in")
	printOnly := flag.Bool("print", false, "print every command's actual output instead of comparing")
	timeout := flag.Duration("timeout", 5*time.Minute, "time limit of one command")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: newcomer [-dir DIR] [-print] README.md")
		return 2
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "newcomer:", err)
		return 2
	}
	items, err := parse(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "newcomer:", err)
		return 2
	}
	// Every command reads a terminal, as in the README's sessions. Where
	// none can be opened, commands read /dev/null and the one line isolda
	// prints for that (the demo-graph note) is not compared.
	tty, leader, err := openTerminal()
	if err != nil {
		fmt.Fprintf(os.Stderr, "newcomer: no pseudo-terminal (%v): commands read /dev/null, the demo-graph note is ignored\n", err)
	} else {
		defer leader.Close()
		defer tty.Close()
	}
	var background []*exec.Cmd
	defer func() {
		for _, c := range background {
			_ = syscall.Kill(-c.Process.Pid, syscall.SIGTERM)
			_ = c.Wait()
		}
	}()
	ran, failed := 0, 0
	for _, it := range items {
		if it.step == nil {
			if err := os.WriteFile(filepath.Join(*dir, it.file), []byte(it.text), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "newcomer:", err)
				return 2
			}
			continue
		}
		s := it.step
		ran++
		var out []byte
		var runErr error
		if cmdline, bg := strings.CutSuffix(strings.TrimSpace(s.command), "&"); bg {
			buf := &syncbuf.Buffer{}
			c := exec.Command("bash", "-c", cmdline)
			c.Dir, c.Stdout, c.Stderr = *dir, buf, buf
			if tty != nil {
				c.Stdin = tty
			}
			c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if runErr = c.Start(); runErr == nil {
				background = append(background, c)
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && len(lines(buf.Bytes())) < len(s.want); {
					time.Sleep(50 * time.Millisecond)
				}
			}
			out = buf.Bytes()
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), *timeout)
			c := exec.CommandContext(ctx, "bash", "-c", s.command)
			var buf bytes.Buffer
			c.Dir, c.Stdout, c.Stderr = *dir, &buf, &buf
			if tty != nil {
				c.Stdin = tty
			}
			runErr = c.Run()
			cancel()
			out = buf.Bytes()
			if strings.Contains(s.command, `echo "exit $?"`) {
				runErr = nil
			}
		}
		got := lines(out)
		if tty == nil {
			got = dropDemoNote(got)
		}
		if *printOnly {
			fmt.Printf("$ %s\n%s", s.command, out)
			if runErr != nil {
				fmt.Printf("[%v]\n", runErr)
			}
			continue
		}
		if runErr != nil || !match(s.want, got) {
			failed++
			fmt.Printf("README.md:%d: $ %s\n", s.line, s.command)
			if runErr != nil {
				fmt.Printf("  %v\n", runErr)
			}
			fmt.Printf("  README shows:\n%s  the command printed:\n%s", indent(s.want), indent(got))
		}
	}
	if *printOnly {
		return 0
	}
	fmt.Printf("newcomer: %d commands of the README run, %d outputs as the README shows them, %d differ\n", ran, ran-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// indent renders lines indented by four spaces.
func indent(ls []string) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}
