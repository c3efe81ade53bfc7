// Command isolda turns RDF knowledge graphs into text that language models
// read well (the ISOLDA notation and the other formats of the literature)
// and measures how well they read it.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

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

func newRootCmd(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "isolda",
		Short:         "Serialize knowledge graphs for language models, and measure the formats",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.AddCommand(commands(env)...)
	return root
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
			fmt.Fprintln(env.Stderr, "isolda:", ee.err)
		}
		return ee.code
	}
	// cobra's own errors are usage errors (unknown flag, wrong arguments).
	fmt.Fprintln(env.Stderr, "isolda:", err)
	return exitBadInput
}

func main() {
	os.Exit(run(os.Args[1:], &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
