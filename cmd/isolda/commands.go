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
