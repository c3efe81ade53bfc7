package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"

	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
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
		Long: "Reads a text file (standard input when FILE is - or missing) and prints its token count as the " +
			"first line. --ids prints the token ids on the second line, space-separated. --all prints a table " +
			"of every available tokenizer instead: the embedded o200k_base and cl100k_base, and each folder of " +
			"the models directory ($ISOLDA_TOKENIZERS or --models-dir) that holds a tokenizer.json. " +
			"--tokenizer also takes a path to a tokenizer.json or a Hugging Face model id found in the " +
			"Hugging Face cache ($HF_HOME). Special tokens (such as Gemma's <bos>) are not counted unless " +
			"--special is given.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if all && (ids || file != "" || cmd.Flags().Changed("tokenizer")) {
				return badInput(fmt.Errorf("--all cannot be combined with --ids, --tokenizer or --tokenizer-file"))
			}
			in, closeIn, err := openText(env, argOrEmpty(args))
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
				return writeAllCounts(env, reg, string(text))
			}
			var tok token.Tokenizer
			if file != "" {
				tok, err = token.OpenFile(file, file, special)
			} else {
				tok, err = reg.Get(name)
			}
			if err != nil {
				return badInput(err)
			}
			w := bufio.NewWriter(env.Stdout)
			if !ids {
				n, err := token.CountReader(tok, in)
				if err != nil {
					return badInput(err)
				}
				fmt.Fprintln(w, n)
				return w.Flush()
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
			return w.Flush()
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&name, "tokenizer", "t", token.O200KBase, "tokenizer: o200k_base, cl100k_base, a short name in the models directory (qwen3, llama3, gemma3), a tokenizer.json path or a Hugging Face model id")
	fl.StringVar(&file, "tokenizer-file", "", "load this tokenizer.json (overrides --tokenizer)")
	fl.StringVar(&modelsDir, "models-dir", "", "folder with one sub-folder per tokenizer, each holding a tokenizer.json (default $ISOLDA_TOKENIZERS)")
	fl.BoolVar(&all, "all", false, "print a table of the count for every available tokenizer")
	fl.BoolVar(&ids, "ids", false, "also print the token ids (second line, space-separated)")
	fl.BoolVar(&special, "special", false, "count special tokens: those the tokenizer adds (Gemma's <bos>), and special-token literals such as <|endoftext|> for the OpenAI encodings")
	return cmd
}

// openText opens a file, or standard input for "-" or "".
func openText(env *Env, name string) (io.Reader, func(), error) {
	if name == "" || name == "-" {
		return env.Stdin, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, badInput(err)
	}
	return f, func() { f.Close() }, nil
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
