package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newTokensCmd(env *Env) *cobra.Command {
	var (
		name      string
		file      string
		modelsDir string
		all       bool
		ids       bool
		special   bool
	)
	cmd := &cobra.Command{
		Use:   "tokens [FILE|-]",
		Short: "Count the tokens of a text with real tokenizers (o200k_base, cl100k_base, Qwen3, Llama 3, Gemma 3, any tokenizer.json)",
		Long: "Reads a text (FILE, or standard input for - or no FILE) and prints its token count as the first " +
			"line. --ids prints the token ids on the second line, space-separated. --all prints a table of " +
			"every available tokenizer instead: the embedded o200k_base and cl100k_base, and each folder of " +
			"the models directory ($ISOLDA_TOKENIZERS or --models-dir) that holds a tokenizer.json (the " +
			"tokenizer.json files of Qwen3, Llama 3 and Gemma 3 are not shipped: their licences). --tokenizer " +
			"also takes a path to a tokenizer.json or a Hugging Face model id found in the Hugging Face cache " +
			"($HF_HOME). Special tokens (such as Gemma's <bos>) are not counted unless --special is given.",
		Example: "  isolda encode examples/demo.ttl | isolda tokens\n" +
			"  isolda tokens --tokenizer cl100k_base --ids README.md\n" +
			"  isolda tokens --all --models-dir ../shared/tokenizers/models examples/demo.ttl",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			noteLegacyTokenizer(env, cmd)
			if all && (ids || file != "" || cmd.Flags().Changed("tokenizer") || cmd.Flags().Changed(legacyTokenizerFlag)) {
				return badInput(fmt.Errorf("--all cannot be combined with --ids, --tokenizer or --tokenizer-file"))
			}
			in, _, closeIn, err := openDocument(env, "tokens", argOrEmpty(args))
			if err != nil {
				return err
			}
			defer closeIn()
			reg := token.NewRegistry(token.Options{ModelsDir: modelsDir, Special: special})
			if all {
				text, err := io.ReadAll(in)
				if err != nil {
					return badInput(err)
				}
				noteMissingTokenizers(env, reg, modelsDir)
				return writeAllCounts(env, reg, string(text))
			}
			var tok token.Tokenizer
			if file != "" {
				tok, err = token.OpenFile(file, file, special)
			} else if tok, err = reg.Get(name); err != nil {
				return unknownTokenizer(reg, name, err)
			}
			if err != nil {
				return badInput(err)
			}
			return toStdout(env, func(w io.Writer) error {
				if !ids {
					n, err := token.CountReader(tok, in)
					if err != nil {
						return badInput(err)
					}
					fmt.Fprintln(w, n)
					return nil
				}
				text, err := io.ReadAll(in)
				if err != nil {
					return badInput(err)
				}
				list := tok.Encode(string(text))
				fmt.Fprintln(w, len(list))
				var buf []byte
				for i, id := range list {
					if i > 0 {
						buf = append(buf, ' ')
					}
					buf = strconv.AppendInt(buf, int64(id), 10)
					if len(buf) > 1<<15 {
						w.Write(buf)
						buf = buf[:0]
					}
				}
				buf = append(buf, '\n')
				w.Write(buf)
				return nil
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&name, "tokenizer", token.O200KBase, "tokenizer: o200k_base, cl100k_base, a short name in the models directory (qwen3, llama3, gemma3), a tokenizer.json path or a Hugging Face model id")
	fl.StringVar(&file, "tokenizer-file", "", "load this tokenizer.json (overrides --tokenizer)")
	modelsDirFlag(fl, &modelsDir)
	fl.BoolVar(&all, "all", false, "print a table of the count for every available tokenizer")
	fl.BoolVar(&ids, "ids", false, "also print the token ids (second line, space-separated)")
	fl.StringVarP(&name, legacyTokenizerFlag, "t", token.O200KBase, "deprecated: --tokenizer")
	hideLegacy(cmd)
	fl.BoolVar(&special, "special", false, "count special tokens: those the tokenizer adds (Gemma's <bos>), and special-token literals such as <|endoftext|> for the OpenAI encodings")
	return cmd
}

// studyTokenizers are the short names of the tokenizers of the studies'
// models whose tokenizer.json files are not shipped.
func studyTokenizers() []string { return []string{"qwen3", "llama3", "gemma3"} }

// noteMissingTokenizers says on stderr which of the studies' tokenizers
// tokens --all leaves out, and why.
func noteMissingTokenizers(env *Env, reg *token.Registry, modelsDir string) {
	avail := reg.Available()
	var missing []string
	for _, n := range studyTokenizers() {
		if !slices.Contains(avail, n) {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return
	}
	if modelsDir == "" {
		modelsDir = os.Getenv("ISOLDA_TOKENIZERS")
	}
	why := "no models folder: give --models-dir DIR or set $ISOLDA_TOKENIZERS (one sub-folder per tokenizer, each with its tokenizer.json; the files are not shipped)"
	if modelsDir != "" {
		why = fmt.Sprintf("no NAME/tokenizer.json for them in the models folder %s", modelsDir)
	}
	fmt.Fprintf(env.Stderr, "isolda: tokens --all: left out %s: %s\n", strings.Join(missing, ", "), why)
}

// writeAllCounts prints "tokenizer tokens" for every available tokenizer;
// a tokenizer that fails to load is reported and makes the command fail.
func writeAllCounts(env *Env, reg *token.Registry, text string) error {
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "tokenizer\ttokens")
	var firstErr error
	for _, n := range reg.Available() {
		tok, err := reg.Get(n)
		if err != nil {
			fmt.Fprintf(tw, "%s\t-\n", n)
			fmt.Fprintln(env.Stderr, "isolda:", err)
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\n", n, tok.Count(text))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if firstErr != nil {
		return badInput(fmt.Errorf("some tokenizers could not be loaded"))
	}
	return nil
}

// modelsDirFlag adds --models-dir, the folder of the tokenizers that a
// command's --tokenizer (or an experiment's tokenizer:) may name, to fl.
func modelsDirFlag(fl *pflag.FlagSet, dir *string) {
	fl.StringVar(dir, "models-dir", "", "folder with one sub-folder per tokenizer, each holding a tokenizer.json (default $ISOLDA_TOKENIZERS)")
}
