package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpWidth is the width the long help texts are wrapped to.
const helpWidth = 100

// finishHelp walks the command tree: it wraps every long description to
// helpWidth columns and makes every command that has subcommands reject an
// unknown one (exit 2, with a suggestion) instead of printing its help and
// exiting 0, and print its help when called alone.
func finishHelp(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		finishHelp(c)
	}
	cmd.Long = wrapText(cmd.Long, helpWidth, "")
	cmd.SetFlagErrorFunc(suggestFlag)
	if !cmd.HasSubCommands() || !cmd.HasParent() {
		return
	}
	if cmd.Args == nil {
		cmd.Args = unknownSubcommand
	}
	if cmd.RunE == nil && cmd.Run == nil {
		cmd.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	}
}

// unknownSubcommand is the Args check of a command with subcommands: any
// argument is an unknown subcommand.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	cmd.SuggestionsMinimumDistance = 2
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError("%s (see %s --help)", msg, cmd.CommandPath())
}

// wrapText wraps each paragraph of s (paragraphs are separated by blank
// lines; lines starting with a space are kept as they are, for examples
// and lists) to width columns, prefixing every line with indent.
func wrapText(s string, width int, indent string) string {
	var out []string
	for _, para := range strings.Split(s, "\n\n") {
		var lines []string
		var words []string
		flush := func() {
			lines = append(lines, wrapWords(words, width, indent)...)
			words = nil
		}
		for _, line := range strings.Split(para, "\n") {
			if strings.HasPrefix(line, " ") {
				flush()
				lines = append(lines, indent+line)
				continue
			}
			words = append(words, strings.Fields(line)...)
		}
		flush()
		out = append(out, strings.Join(lines, "\n"))
	}
	return strings.Join(out, "\n\n")
}

// wrapWords fills lines of at most width columns (a longer word gets a
// line of its own).
func wrapWords(words []string, width int, indent string) []string {
	var lines []string
	line := ""
	for _, w := range words {
		switch {
		case line == "":
			line = indent + w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width:
			lines = append(lines, line)
			line = indent + w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// legacyTokenizerFlag is the hidden flag that keeps -t working for
// --tokenizer in the commands where it meant the tokenizer (tokens, bench);
// -t is the output format (--to) of convert and decode.
const legacyTokenizerFlag = "tokenizer-t"

// noteLegacyTokenizer prints the deprecation note when -t was given for
// the tokenizer.
func noteLegacyTokenizer(env *Env, cmd *cobra.Command) {
	if cmd.Flags().Changed(legacyTokenizerFlag) {
		fmt.Fprintf(env.Stderr, "isolda: %s: -t for the tokenizer is deprecated; use --tokenizer (-t is the output format, --to, of convert and decode)\n",
			cmd.Name())
	}
}

// hideLegacy hides the legacy flag from the help.
func hideLegacy(cmd *cobra.Command) {
	if err := cmd.Flags().MarkHidden(legacyTokenizerFlag); err != nil {
		panic(err) // a programming error: the flag is registered just before
	}
}

// suggestFlag adds to an unknown flag error the command's flags whose
// names are close to it (bench --format: did you mean --formats?).
func suggestFlag(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return err
	}
	var close []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if levenshtein(name, f.Name) <= 2 || (len(name) >= 3 && strings.HasPrefix(f.Name, name)) {
			close = append(close, "--"+f.Name)
		}
	})
	if len(close) == 0 {
		return err
	}
	return fmt.Errorf("%s; did you mean %s? (see %s --help)", msg, strings.Join(close, " or "), cmd.CommandPath())
}
