package study

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/task"
)

// Options configure Init.
type Options struct {
	// BaseURL, Model and Tokenizer point the experiment at one model that
	// reads every arm (BaseURL and Model together); empty: the paper's
	// models with placeholder endpoints.
	BaseURL, Model, Tokenizer string
	// Variant is one of the study's variants (empty: its first).
	Variant string
	// Data maps the study's data slots to paths (files or folders).
	Data map[string]string
	// Units maps data slots to the class of their units, for the slots
	// cut to the paper's budget (DataSlot.Unit is the default).
	Units map[string]string
	// Notes, when set, receives what Init did to the data (a graph cut
	// to the budget), one sentence per call.
	Notes func(string)
	// Phase, when set, is called with what Init starts doing ("reading
	// the KG-LLM-Bench instances", "writing the stored contexts of
	// FORMAT", …), so that a caller can say what a long init is busy with.
	Phase func(what string)
}

// Files written by Init.
const (
	ExperimentFile = "experiment.yaml"
	CriteriaFile   = "criteria.yaml"
	ReadmeFile     = "README.md"
	SumsFile       = "SHA256SUMS"
)

// PlaceholderURL is the endpoint of the paper's models in a folder written
// without --base-url: point each model at its own server.
const PlaceholderURL = "http://localhost:8000/v1"

// builder collects what a study writes.
type builder struct {
	study   *Study
	opts    Options
	variant string
	exp     *eval.Experiment
	// comments are comment lines above top-level keys of experiment.yaml.
	comments map[string]string
	criteria string
	files    map[string][]byte // relative path → content
	// parts are the study's parts with the question counts of this
	// folder (the data's, where they depend on it).
	parts []Part
	// readme sections, in order.
	what, numbers, deviations []string
	// tables are extra README sections (title → Markdown body).
	extra []section
}

type section struct{ title, body string }

// data returns the path of a data slot, or an error naming what it must be.
func (b *builder) data(slot string) (string, error) {
	if p, ok := b.opts.Data[slot]; ok && p != "" {
		return p, nil
	}
	for _, d := range b.study.Data {
		if d.Name == slot {
			return "", fmt.Errorf("study %s needs --data %s=PATH: %s", b.study.Name, slot, d.What)
		}
	}
	return "", fmt.Errorf("study %s has no data slot %q", b.study.Name, slot)
}

// phase says what the builder starts doing (Options.Phase).
func (b *builder) phase(what string) {
	if b.opts.Phase != nil {
		b.opts.Phase(what)
	}
}

// file adds a file to write.
func (b *builder) file(rel string, content []byte) { b.files[rel] = content }

// set adds a frozen set (gzip-compressed when rel ends in .gz, with a
// fixed header so that the bytes do not depend on the time).
func (b *builder) set(rel string, s *task.Set) error {
	var buf bytes.Buffer
	var w io.Writer = &buf
	var zw *gzip.Writer
	if strings.HasSuffix(rel, ".gz") {
		var err error
		if zw, err = gzip.NewWriterLevel(&buf, gzip.DefaultCompression); err != nil {
			return err
		}
		w = zw
	}
	if err := task.WriteFrozen(w, s); err != nil {
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return err
		}
	}
	b.file(rel, buf.Bytes())
	return nil
}

// Init writes the folder of a study into dir, which must not exist or be
// empty. It returns the paths written, relative to dir.
func Init(name, dir string, opts Options) ([]string, error) {
	s, ok := Get(name)
	if !ok {
		return nil, errUnknown(name)
	}
	if (opts.BaseURL == "") != (opts.Model == "") {
		return nil, errors.New("--base-url and --model go together")
	}
	if opts.Tokenizer != "" && opts.Model == "" {
		return nil, errors.New("--tokenizer needs --base-url and --model")
	}
	variant := opts.Variant
	switch {
	case variant == "" && len(s.Variants) > 0:
		variant = s.Variants[0]
	case variant != "" && !slices.Contains(s.Variants, variant):
		if len(s.Variants) == 0 {
			return nil, fmt.Errorf("study %s has no variants", s.Name)
		}
		return nil, fmt.Errorf("study %s: unknown variant %q (one of %s)", s.Name, variant, strings.Join(s.Variants, ", "))
	}
	for slot := range opts.Data {
		if !slices.ContainsFunc(s.Data, func(d DataSlot) bool { return d.Name == slot }) {
			return nil, fmt.Errorf("study %s has no data slot %q (slots: %s)", s.Name, slot, strings.Join(s.slotNames(), ", "))
		}
	}
	for slot := range opts.Units {
		if !slices.ContainsFunc(s.Data, func(d DataSlot) bool { return d.Name == slot && d.Unit != "" }) {
			return nil, fmt.Errorf("study %s has no data slot %q that is cut into units", s.Name, slot)
		}
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return nil, fmt.Errorf("%s exists and is not empty; not overwriting it", dir)
	}
	s = s.Variant(variant)
	b := &builder{study: s, opts: opts, variant: variant, files: map[string][]byte{}, comments: map[string]string{},
		exp: &eval.Experiment{Name: s.Name}, parts: slices.Clone(s.Parts)}
	b.phase("building the study " + s.Name)
	if err := s.build(b); err != nil {
		return nil, fmt.Errorf("study %s: %w", s.Name, err)
	}
	b.setModels()
	b.phase("checking the experiment")
	y := experimentYAML(b.exp, b.head(), b.comments)
	// What is written must be what eval reads.
	back, err := eval.ParseExperiment([]byte(y), filepath.Join(dir, ExperimentFile))
	if err != nil {
		return nil, fmt.Errorf("study %s: the written experiment does not validate: %w", s.Name, err)
	}
	if err := sameExperiment(b.exp, back); err != nil {
		return nil, fmt.Errorf("study %s: the written experiment reads back differently: %w", s.Name, err)
	}
	b.file(ExperimentFile, []byte(y))
	if b.criteria != "" {
		if _, err := report.ParseCriteria(strings.NewReader(b.criteria), CriteriaFile); err != nil {
			return nil, fmt.Errorf("study %s: criteria: %w", s.Name, err)
		}
		b.file(CriteriaFile, []byte(b.criteria))
	}
	b.phase("hashing and writing the files")
	sums := b.sums()
	b.file(SumsFile, []byte(sums))
	b.file(ReadmeFile, []byte(b.readme(sums)))
	paths := make([]string, 0, len(b.files))
	for p := range b.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(full, b.files[p], 0o644); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

func (s *Study) slotNames() []string {
	var out []string
	for _, d := range s.Data {
		out = append(out, d.Name)
	}
	return out
}

// setModels sets the experiment's models: the one given, reading every
// arm, or the paper's with placeholder endpoints.
func (b *builder) setModels() {
	if b.opts.Model != "" {
		b.exp.Models = []eval.Model{{Name: modelName(b.opts.Model), BaseURL: b.opts.BaseURL, Model: b.opts.Model,
			Tokenizer: b.opts.Tokenizer, APIKeyEnv: "OPENAI_API_KEY", ExtraBody: noThinking(), MaxConcurrency: 8}}
		b.comments["models"] = "The one model given to `isolda study init`, reading every arm. Thinking is disabled\n" +
			"(remove extra_body for servers without chat_template_kwargs). The key, if any, is read from OPENAI_API_KEY."
		return
	}
	for _, m := range b.study.Models {
		b.exp.Models = append(b.exp.Models, eval.Model{Name: m.Name, BaseURL: cmp.Or(m.BaseURL, PlaceholderURL), Model: m.Model,
			APIKeyEnv: m.APIKeyEnv, Tokenizer: m.Tokenizer, ExtraBody: m.ExtraBody, MaxConcurrency: 8, Arms: m.Arms, Graphs: m.Graphs})
	}
	b.comments["models"] = "The paper's models, with the request fields of its settings (extra_body). A base_url of\n" +
		PlaceholderURL + " is a placeholder: point the model at the server that serves it, and model at\n" +
		"the id it serves. The tokenizers count tokens locally (set ISOLDA_TOKENIZERS to a folder of\n" +
		"tokenizer.json models, or name a tokenizer.json or a Hugging Face id)."
}

// modelName turns a model id into a run name: its last path element.
func modelName(id string) string {
	if i := strings.LastIndexByte(id, '/'); i >= 0 && i < len(id)-1 {
		id = id[i+1:]
	}
	var b strings.Builder
	for _, r := range id {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "model"
	}
	return b.String()
}

// head is the comment at the top of experiment.yaml.
func (b *builder) head() string {
	s := b.study
	h := fmt.Sprintf("Study %s, version %d: %s\n%s", s.Name, s.Version, s.Title, s.Paper)
	if b.variant != "" {
		h += fmt.Sprintf(" (variant %s)", b.variant)
	}
	h += "\nWritten by `isolda study init`; README.md says where every number comes from.\n" +
		"Run: isolda eval run experiment.yaml --out RUN"
	if b.criteria != "" {
		h += "\nThen: isolda report RUN --criteria criteria.yaml"
	}
	return h
}

// sums returns SHA256SUMS for every file written so far, sorted by path,
// in the format sha256sum -c reads.
func (b *builder) sums() string {
	paths := make([]string, 0, len(b.files))
	for p := range b.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var out strings.Builder
	for _, p := range paths {
		h := sha256.Sum256(b.files[p])
		fmt.Fprintf(&out, "%s  %s\n", hex.EncodeToString(h[:]), p)
	}
	return out.String()
}

// sameExperiment compares what matters of an experiment and its read-back
// copy: every template, variable and option.
func sameExperiment(a, b *eval.Experiment) error {
	prompts := func(e *eval.Experiment) []string {
		var out []string
		add := func(p *eval.Prompt) {
			if p != nil {
				out = append(out, p.System, p.User)
			}
		}
		add(e.Prompt)
		for _, t := range e.Tasks {
			add(t.Prompt)
		}
		for _, a := range e.Arms {
			add(a.Prompt)
			for _, k := range slices.Sorted(maps.Keys(a.Vars)) {
				out = append(out, k+"="+a.Vars[k])
			}
			if a.Options != nil {
				out = append(out, fmt.Sprintf("%+v", *a.Options))
			}
		}
		return out
	}
	pa, pb := prompts(a), prompts(b)
	if !slices.Equal(pa, pb) {
		for i := range min(len(pa), len(pb)) {
			if pa[i] != pb[i] {
				return fmt.Errorf("%q reads back as %q", pa[i], pb[i])
			}
		}
		return fmt.Errorf("%d templates and options written, %d read", len(pa), len(pb))
	}
	if len(a.Arms) != len(b.Arms) || len(a.Tasks) != len(b.Tasks) || len(a.Graphs) != len(b.Graphs) || len(a.Models) != len(b.Models) {
		return errors.New("arms, tasks, graphs or models differ")
	}
	return nil
}
