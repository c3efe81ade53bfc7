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
		newServeCmd(env),
		newEvalCmd(env),
		newReportCmd(env),
		newSelectCmd(env),
		newChunkCmd(env),
		newSynthCmd(env),
	}
}
