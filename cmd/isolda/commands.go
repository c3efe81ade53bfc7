package main

import "github.com/spf13/cobra"

// commands lists every subcommand; each lives in its own file.
func commands(env *Env) []*cobra.Command {
	return []*cobra.Command{
		newStatsCmd(env),
		newConvertCmd(env),
		newEncodeCmd(env),
		newDecodeCmd(env),
		newCheckCmd(env),
		newTokensCmd(env),
		newQuestionsCmd(env),
		newFormatsCmd(env),
		newBenchCmd(env),
		withExample(newServeCmd(env),
			"  isolda serve --addr 127.0.0.1:8080\n"+
				"  isolda serve --addr :0 --models-dir ../shared/tokenizers/models --memory-limit 2GiB"),
		newEvalCmd(env),
		newReportCmd(env),
		newSelectCmd(env),
		newStudyCmd(env),
		newChunkCmd(env),
		newSampleCmd(env),
		newSynthCmd(env),
		newMCPCmd(env),
	}
}

// withExample sets the Examples of a command whose file does not.
func withExample(cmd *cobra.Command, example string) *cobra.Command {
	if cmd.Example == "" {
		cmd.Example = example
	}
	return cmd
}

// dryRunOrHelp gives a command with subcommands a --dry-run flag (usage is
// its help line) that runs dry, a preview that calls nothing; without the
// flag the command prints its help (finishHelp makes any argument an
// unknown subcommand).
func dryRunOrHelp(cmd *cobra.Command, usage string, dry func() error) {
	var on bool
	cmd.Flags().BoolVar(&on, "dry-run", false, usage)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !on {
			return cmd.Help()
		}
		return dry()
	}
}
