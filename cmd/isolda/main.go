// Command isolda turns RDF knowledge graphs into text that language models
// read well (the ISOLDA notation and the other formats of the literature)
// and measures how well they read it.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes: 0 ok, 1 a check failed, 2 bad usage or bad input.
const (
	exitOK        = 0
	exitCheckFail = 1
	exitBadInput  = 2
)

// Env carries the IO streams a command uses, so commands are testable.
type Env struct {
	// Stdin is standard input; nil means none (as a terminal: the commands
	// that read a graph then read the embedded demo graph).
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// checkFailed returns an error that makes isolda exit with status 1 without
// printing anything more (the command printed its own report).
func checkFailed() error { return &exitError{code: exitCheckFail} }

// badInput wraps err so that isolda prints it and exits with status 2.
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// noOut is the error of a command that writes a folder run without
// --out.
func noOut() error { return badInput(errors.New("--out DIR is required")) }

// usageError is a bad-usage error (exit 2) built like fmt.Errorf.
func usageError(format string, args ...any) error { return badInput(fmt.Errorf(format, args...)) }

func newRootCmd(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "isolda",
		Short: "Serialize knowledge graphs for language models, and measure the formats",
		Long: "isolda turns RDF and JSON-LD knowledge graphs into text that language models read well (the " +
			"ISOLDA notation and the other formats of the literature: isolda formats lists them) and measures " +
			"each format: tokens, round-trip fidelity, traversal accuracy, and accuracy of real models.\n\n" +
			"Every command that reads a graph takes a FILE (any RDF syntax: by -f, else by extension, else " +
			"sniffed), or - for standard input; with no FILE it reads standard input when it is a pipe or a " +
			"file, else the embedded demo graph (examples/demo.ttl).",
		Example: "  isolda stats examples/demo.ttl\n" +
			"  cat examples/demo.ttl | isolda encode\n" +
			"  isolda convert examples/demo.ttl -t ntriples\n" +
			"  isolda bench",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("isolda {{.Version}}\n")
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.AddCommand(commands(env)...)
	finishHelp(root)
	return root
}

// version describes the build: the module version (a tag with go install
// module@version, "(devel)" in a work tree) and the VCS revision, time and
// modified flag that the go command stamps into binaries built in a
// repository.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		v += ", " + settings["vcs"] + " " + rev[:min(12, len(rev))]
		if t := settings["vcs.time"]; t != "" {
			v += " " + t
		}
		if settings["vcs.modified"] == "true" {
			v += " (modified)"
		}
	}
	return v + ", " + bi.GoVersion
}

// run executes the CLI and returns the process exit code.
func run(args []string, env *Env) int {
	root := newRootCmd(env)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			printError(env.Stderr, ee.err)
		}
		return ee.code
	}
	// cobra's own errors are usage errors (unknown flag, wrong arguments).
	printError(env.Stderr, err)
	return exitBadInput
}

// printError writes "isolda: message" once: messages of the isolda package
// already start with "isolda: ".
func printError(w io.Writer, err error) {
	fmt.Fprintln(w, "isolda:", strings.TrimPrefix(err.Error(), "isolda: "))
}

func main() {
	os.Exit(run(os.Args[1:], &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

// toStdout runs write on standard output through a 64 KiB buffer and
// flushes it; on an error the buffered rest is dropped.
func toStdout(env *Env, write func(w io.Writer) error) error {
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	if err := write(w); err != nil {
		return err
	}
	return w.Flush()
}
