package token

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Options configure a Registry.
type Options struct {
	// ModelsDir holds one folder per short tokenizer name, each with a
	// tokenizer.json (models/qwen3/tokenizer.json, ...). Empty means
	// $ISOLDA_TOKENIZERS; if that is unset too, only the embedded encodings,
	// paths and Hugging Face model ids can be used.
	ModelsDir string
	// HFHome is the Hugging Face home folder used to resolve model ids such
	// as "Qwen/Qwen3-8B" to $HF_HOME/hub/models--Qwen--Qwen3-8B/snapshots/
	// */tokenizer.json. Empty means $HF_HUB_CACHE (the hub folder itself),
	// else $HF_HOME, else ~/.cache/huggingface.
	HFHome string
	// Special makes counts and ids include special tokens: the ones a
	// tokenizer.json's post-processor adds (Gemma 3's <bos>), and for the
	// OpenAI encodings the recognition of special-token literals such as
	// <|endoftext|> in the text. Without it nothing is added, and
	// tiktoken-style encodings treat such literals as ordinary text.
	// (tokenizer.json added tokens are always matched in the text, as the
	// Hugging Face libraries do by default.)
	Special bool
}

// Registry resolves tokenizer names and loads each tokenizer once, on first
// use. It is safe for concurrent use.
type Registry struct {
	opts    Options
	hub     string // Hugging Face hub cache folder
	mu      sync.Mutex
	entries map[string]*entry
}

type entry struct {
	once sync.Once
	tok  Tokenizer
	err  error
}

// NewRegistry returns a Registry; environment variables are read now.
func NewRegistry(opts Options) *Registry {
	if opts.ModelsDir == "" {
		opts.ModelsDir = os.Getenv("ISOLDA_TOKENIZERS")
	}
	hub := ""
	switch {
	case opts.HFHome != "":
		hub = filepath.Join(opts.HFHome, "hub")
	case os.Getenv("HF_HUB_CACHE") != "":
		hub = os.Getenv("HF_HUB_CACHE")
	case os.Getenv("HF_HOME") != "":
		hub = filepath.Join(os.Getenv("HF_HOME"), "hub")
	default:
		if home, err := os.UserHomeDir(); err == nil {
			hub = filepath.Join(home, ".cache", "huggingface", "hub")
		}
	}
	return &Registry{opts: opts, hub: hub, entries: map[string]*entry{}}
}

// Get returns the tokenizer called name, loading it on first use. name is
// one of: an embedded encoding (o200k_base, cl100k_base); a short name
// with a folder in ModelsDir (qwen3, llama3, gemma3, ...); a path to a
// tokenizer.json file or to a folder holding one; a Hugging Face model id
// (ORG/NAME) found in the Hugging Face cache. The outcome of a load,
// success or error, is remembered for the life of the Registry.
func (r *Registry) Get(name string) (Tokenizer, error) {
	if name == "" {
		return nil, errors.New("token: empty tokenizer name")
	}
	r.mu.Lock()
	e, ok := r.entries[name]
	if !ok {
		e = &entry{}
		r.entries[name] = e
	}
	r.mu.Unlock()
	e.once.Do(func() { e.tok, e.err = r.load(name) })
	return e.tok, e.err
}

func (r *Registry) load(name string) (Tokenizer, error) {
	switch name {
	case O200KBase, CL100KBase:
		return loadTiktoken(name, r.opts.Special)
	}
	if path, ok := r.shortPath(name); ok {
		return OpenFile(path, name, r.opts.Special)
	}
	if st, err := os.Stat(name); err == nil {
		path := name
		if st.IsDir() {
			path = filepath.Join(name, "tokenizer.json")
		}
		return OpenFile(path, tokenizerName(name), r.opts.Special)
	}
	if path, err := r.hfCachePath(name); err == nil {
		return OpenFile(path, name, r.opts.Special)
	} else if strings.Count(name, "/") == 1 && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "/") {
		return nil, err
	}
	return nil, fmt.Errorf("token: unknown tokenizer %q (not an embedded encoding, not in the models folder %q, not a file, not in the Hugging Face cache)", name, r.opts.ModelsDir)
}

// tokenizerName names a tokenizer loaded from a path: its folder's name for
// .../NAME/tokenizer.json, else the file name.
func tokenizerName(path string) string {
	clean := filepath.Clean(path)
	if filepath.Base(clean) == "tokenizer.json" {
		return filepath.Base(filepath.Dir(clean))
	}
	return filepath.Base(clean)
}

// shortPath returns ModelsDir/name/tokenizer.json if it exists.
func (r *Registry) shortPath(name string) (string, bool) {
	if r.opts.ModelsDir == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return "", false
	}
	p := filepath.Join(r.opts.ModelsDir, name, "tokenizer.json")
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p, true
	}
	return "", false
}

// hfCachePath finds tokenizer.json of a model id in the Hugging Face cache:
// the snapshot named by refs/main if it has one, else the last snapshot (in
// name order) that has one.
func (r *Registry) hfCachePath(id string) (string, error) {
	org, model, ok := strings.Cut(id, "/")
	if !ok || org == "" || model == "" || strings.ContainsAny(model, `/\`) || org == ".." || model == ".." {
		return "", fmt.Errorf("token: %q is not a Hugging Face model id", id)
	}
	if r.hub == "" {
		return "", errors.New("token: no Hugging Face cache folder")
	}
	repo := filepath.Join(r.hub, "models--"+org+"--"+model)
	if ref, err := os.ReadFile(filepath.Join(repo, "refs", "main")); err == nil {
		p := filepath.Join(repo, "snapshots", strings.TrimSpace(string(ref)), "tokenizer.json")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	snaps, _ := filepath.Glob(filepath.Join(repo, "snapshots", "*", "tokenizer.json"))
	if len(snaps) == 0 {
		return "", fmt.Errorf("token: model %q not in the Hugging Face cache (%s)", id, repo)
	}
	sort.Strings(snaps)
	return snaps[len(snaps)-1], nil
}

// Available returns the names Get resolves without a path: the embedded
// encodings, then the folders of ModelsDir that hold a tokenizer.json, in
// name order.
func (r *Registry) Available() []string {
	names := []string{O200KBase, CL100KBase}
	if r.opts.ModelsDir == "" {
		return names
	}
	des, err := os.ReadDir(r.opts.ModelsDir)
	if err != nil {
		return names
	}
	var more []string
	for _, de := range des {
		if _, ok := r.shortPath(de.Name()); ok && de.Name() != O200KBase && de.Name() != CL100KBase {
			more = append(more, de.Name())
		}
	}
	sort.Strings(more)
	return append(names, more...)
}
