package main

import (
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/isolda/isolda/synth"
	"github.com/spf13/cobra"
)

func newSynthCmd(env *Env) *cobra.Command {
	var opts synth.Options
	cmd := &cobra.Command{
		Use:   "synth --triples N [--seed S]",
		Short: "Stream a synthetic knowledge graph of any size as N-Triples (for scale tests)",
		Long: "Writes exactly N statements of a synthetic entity graph to standard output as N-Triples, in " +
			"constant memory: seven classes with skewed frequencies, labels (some in two languages), typed " +
			"literals, blank-node addresses, and links whose targets follow a Zipf law (a few hubs gather " +
			"most incoming links). The same --seed gives the same bytes. Pipe it into another command rather " +
			"than storing it: 20 million statements are about 2.4 GB.",
		Example: "  isolda synth --triples 1000 --seed 7 | head\n" +
			"  isolda synth --triples 20000000 | isolda convert --stream -f nt -t nquads > /dev/null\n" +
			"  isolda synth --triples 1000000 | isolda chunk -f nt --memory-limit 256MiB > chunks.jsonl",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Triples < 0 {
				return usageError("synth: --triples must be 0 or more, not %d", opts.Triples)
			}
			err := synth.Write(env.Stdout, opts)
			if errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) {
				return nil // the reader stopped early (| head): not an error
			}
			if err != nil {
				return fmt.Errorf("synth: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().Int64Var(&opts.Triples, "triples", 1000, "number of statements to write")
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the generator")
	return cmd
}
