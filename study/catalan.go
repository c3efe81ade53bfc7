package study

import (
	"fmt"
	"os"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/task/kgllm"
)

// catalanArms are the arms of the Catalan study: the benchmark's formats
// with rdf_turtle2 and json_ld2, and ISOLDA 0.2 (named as in the
// kgllmbench study, so that its English runs can be rescored and joined).
func catalanArms() []string {
	return append(append(append([]string{}, kgllmPaperFormats()...), kgllmExtraFormats()...), catalanISOLDA)
}

// catalanISOLDA is the Catalan study's ISOLDA arm.
const catalanISOLDA = "isolda-0.2"

// The Catalan study's variants: the Catalan questions only (the English
// answers come from an English run, rescored), or both languages asked.
const (
	catalanOnly = "catalan"
	catalanFull = "full"
)

// catalanParts are the collections a variant asks: Catalan only, or
// English and Catalan.
func catalanParts(variant string) []Part {
	langs := []string{kgllm.LangCatalan}
	if variant == catalanFull {
		langs = []string{kgllm.LangEnglish, kgllm.LangCatalan}
	}
	var parts []Part
	for _, lang := range langs {
		for _, v := range []string{kgllm.VariantReal, kgllm.VariantPseudo} {
			parts = append(parts, Part{Graph: kgllmGraph(v, lang), Questions: 500, Arms: catalanArms()})
		}
	}
	return parts
}

func catalanStudy() *Study {
	return &Study{
		Name: "kgllmbench-ca", Version: 2,
		Paper: "\"ISOLDA: Indexed Subject-Ordered Linked Data for AI\" (spec 000) §4.7, KG-LLM-Bench in Catalan (planned, pre-registered criteria)",
		Title: "KG-LLM-Bench's 500 instances in Catalan (real names with Catalan labels; pseudonyms with Catalan relations, instructions and questions), with the English answers of an existing run rescored with the adapted scorer (variant full: asked again), in the benchmark's formats and ISOLDA 0.2",
		Data: []DataSlot{
			kgllmbenchSlot(),
			{Name: "labels", What: "Catalan labels of the instances' entities and relations: tab-separated lines <Wikidata id><TAB><label> (Q… and P… ids), e.g. exported from the Wikidata query service"},
		},
		Variants: []string{catalanOnly, catalanFull},
		Parts:    catalanParts(catalanOnly),
		Models:   []PaperModel{qwen4b(), gemmaE4B(), qwen27b(), gemma31b()},
		Criteria: "C1, C2, C3, C4, C5 (§4.7)",
		build:    buildCatalan,
		variant:  func(s *Study, v string) { s.Parts = catalanParts(v) },
	}
}

func buildCatalan(b *builder) error {
	dir, err := b.data("kgllmbench")
	if err != nil {
		return err
	}
	lpath, err := b.data("labels")
	if err != nil {
		return err
	}
	lf, err := os.Open(lpath)
	if err != nil {
		return err
	}
	labels, err := kgllm.LoadLabels(lf)
	lf.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", lpath, err)
	}
	ldata, err := os.ReadFile(lpath)
	if err != nil {
		return err
	}
	b.file("data/labels_ca.tsv", ldata)
	var studies []*kgllm.Study
	var sums [][2]string
	for _, v := range []string{kgllm.VariantReal, kgllm.VariantPseudo} {
		en, s, err := loadKGLLM(dir, v, b.phase)
		if err != nil {
			return err
		}
		sums = append(sums, s...)
		ca, err := en.Catalan(labels)
		if err != nil {
			return err
		}
		studies = append(studies, en, ca)
	}
	// English first, then Catalan, as the parts list them; the default
	// variant asks the Catalan ones only.
	studies = []*kgllm.Study{studies[0], studies[2], studies[1], studies[3]}
	full := b.variant == catalanFull
	if !full {
		studies = studies[2:]
	}
	formats := append(append([]string{}, kgllmPaperFormats()...), kgllmExtraFormats()...)
	graphs, err := kgllmParts(b, studies, formats, "kgllm_adapted")
	if err != nil {
		return err
	}
	for i, st := range studies {
		b.parts[i].Graph, b.parts[i].Questions = graphs[i], len(st.Questions)
	}
	e := b.exp
	langs := []string{kgllm.LangCatalan}
	if full {
		langs = []string{kgllm.LangEnglish, kgllm.LangCatalan}
	}
	e.Arms = append(e.Arms, isoldaArm(catalanISOLDA, "isolda", langs, &eval.IsoldaOptions{Spec: "0.2"}))
	e.Temperature, e.MaxTokens = 0, 512
	b.comments["arms"] = "The benchmark's formats (stored in sets/, one context per instance, language and variant) and ISOLDA 0.2\n" +
		"encoded from the RDF of rdf_turtle2 in each language; every ISOLDA context is checked isomorphic when the run is prepared."
	b.comments["tasks"] = "One task per language and variant asked, with the benchmark's prompt in that language; every answer is\n" +
		"scored with the adapted scorer (kgllm_adapted), the English ones too (§4.7)."
	b.criteria = catalanCriteria(kgllmGraph(kgllm.VariantReal, kgllm.LangEnglish), kgllmGraph(kgllm.VariantReal, kgllm.LangCatalan),
		kgllmGraph(kgllm.VariantPseudo, kgllm.LangEnglish), kgllmGraph(kgllm.VariantPseudo, kgllm.LangCatalan))
	b.what = append(b.what,
		"The KG-LLM-Bench study in Catalan (§4.7): the same 500 instances in two variants, real names with the Catalan "+
			"Wikidata label of each entity and relation (entities without one keep their name), and the paper's pseudonyms "+
			"with relations, instructions and questions in Catalan. Everything the model reads is in Catalan except the ISOLDA "+
			"glossary. The answers are asked as «Resposta: …» and scored with the benchmark's scorer adapted in two ways "+
			"only: it accepts the Catalan keyword, and apostrophes, hyphens and the middle dot in entity labels. As in the paper, "+
			"the English answers are rescored with the same scorer, so that criterion C5 compares like with like: in the default "+
			"variant ("+catalanOnly+") they are not asked again but taken from existing runs of the English collections "+
			"(see \"The English answers\" below); the variant "+catalanFull+" asks them again (64,000 calls instead of 32,000).",
		fmt.Sprintf("Collections asked: %v, %d questions each.", graphs, len(studies[0].Questions)))
	b.numbers = append(b.numbers,
		"Catalan prompts, questions and answer keywords: task/kgllm's translations of the benchmark's texts (each keeps the English text's structure and quirks).",
		"Labels: the file given with --data labels, copied to data/labels_ca.tsv.",
		"Models: the four modern ones (§4.7); Llama 3.2 is left out because it does not officially cover Catalan.",
		"Criteria C1–C5: §4.7, each per model and variant (a criterion passes only if it holds in both variants), exact McNemar, alpha 0.05; C5 with the exact sign test of the per-instance differences of the drops (kgllm.CompareLanguageDrop).",
		fmt.Sprintf("Calls: 4 models × %d arms × %d questions = %d (§4.7 asks the Catalan instances; the English answers are rescored, not asked again).",
			len(catalanArms()), 500*len(studies), 4*len(catalanArms())*500*len(studies)))
	for _, s := range sums {
		b.numbers = append(b.numbers, fmt.Sprintf("Instances: %s, SHA-256 %s.", s[0], s[1]))
	}
	b.deviations = append(b.deviations,
		"The ISOLDA version \"will be fixed when the validation of ISOLDA 0.2 ends\": the study uses 0.2; change the isolda arm's spec to use another.",
		"§4.7 does not say which arms each model reads: every model reads every arm (32,000 Catalan calls; 64,000 with the variant "+catalanFull+").",
		"§4.7 gives no statistic for C5. The study uses the exact two-sided sign test on the per-instance differences of the drops: "+
			"for each instance, the drop of an arm is its English score minus its Catalan score (−1, 0 or 1), and the test counts "+
			"the instances where ISOLDA's drop is larger and those where it is smaller, ignoring ties. Why: C5 compares two paired "+
			"differences on the same 500 instances, so the test must be paired by instance; the sign test is the exact test of "+
			"that comparison, as McNemar (C3, C4) is the sign test of discordant pairs, with no normal approximation on what may be "+
			"a few discordant instances, and it needs no assumption on the size of the differences. \"The best paper format\" is "+
			"the one most accurate on the variant's English and Catalan questions together.",
		"The Catalan labels are not distributed: give them with --data labels=FILE.")
	if !full {
		b.deviations = append(b.deviations, "The English answers come from another run: for Qwen3 4B and Gemma 4 E4B the kgllmbench "+
			"study's runs (variants pseudo"+kgllmWith02+" and real"+kgllmWith02+") have every arm; for Qwen3.8 27B and Gemma 4 31B §4.5 "+
			"asked list_of_edges, structured_json, rdf_turtle2 and ISOLDA only, so their C5 compares ISOLDA with the best of "+
			"list_of_edges and structured_json, unless their English run has the other arms (or use the variant "+catalanFull+").")
		b.extra = append(b.extra, section{title: "The English answers (rescored, not asked again)", body: fmt.Sprintf(
			"§4.7: \"The English runs are rescored with the same scorer.\" This folder asks the Catalan collections only. "+
				"Criterion C5 also needs the English answers of the same models and arms (collections %[1]s and %[2]s, arm %[3]s for ISOLDA 0.2): "+
				"take them from runs of the kgllmbench study, which has the same instances, arm names and model names, and let the "+
				"report rescore them with the adapted scorer:\n\n```sh\n"+
				"isolda study init kgllmbench en-pseudo --variant pseudo%[4]s --data kgllmbench=PATH   # skip if you have these runs\n"+
				"isolda study init kgllmbench en-real --variant real%[4]s --data kgllmbench=PATH\n"+
				"isolda eval run en-pseudo/experiment.yaml --out en-pseudo-run\n"+
				"isolda eval run en-real/experiment.yaml --out en-real-run\n"+
				"isolda eval run experiment.yaml --out run\n"+
				"isolda report run --with en-pseudo-run --with en-real-run --rescore kgllm_adapted --criteria criteria.yaml --out run/report\n"+
				"```\n\n"+
				"`--rescore kgllm_adapted` scores every logged answer of the three runs again with the adapted scorer (no model is called; "+
				"the Catalan answers were already scored with it); `--with` adds the English collections, which this run does not have. "+
				"Without them, C5 is NOT EVALUATED.",
			kgllmGraph(kgllm.VariantPseudo, kgllm.LangEnglish), kgllmGraph(kgllm.VariantReal, kgllm.LangEnglish), catalanISOLDA, kgllmWith02)})
	}
	return nil
}

// catalanCriteria writes C1–C5 for the English and Catalan collections of
// the real and pseudonymized variants.
func catalanCriteria(enR, caR, enP, caP string) string {
	return fmt.Sprintf(`# Criteria C1-C5 of the ISOLDA paper's KG-LLM-Bench study in Catalan (§4.7),
# pre-registered. "A criterion passes only if it holds in both variants": every
# check is made per model and variant (per: model_graph) and must pass. Exact
# McNemar, alpha 0.05; C5 with the exact sign test of the per-instance
# differences of the drops from English to Catalan.
name: ISOLDA paper §4.7 KG-LLM-Bench in Catalan
alpha: 0.05
criteria:
  - id: C1
    kind: lossless
    description: ISOLDA is lossless in both variants.
    arm: isolda-0.2
    graphs: [%[2]s, %[4]s]
  - id: C2
    kind: token_reduction
    description: ISOLDA takes fewer tokens than every RDF format, in both variants.
    arm: isolda-0.2
    than: [rdf_turtle3, json_ld3, rdf_turtle2, json_ld2]
    at_least: 0
    graphs: [%[2]s, %[4]s]
    per: model_graph
    for: every
  - id: C3
    kind: not_worse
    description: ISOLDA is never significantly worse than the best paper format, in both variants.
    arm: isolda-0.2
    than: [list_of_edges, structured_yaml, structured_json, rdf_turtle3, json_ld3]
    best: true
    graphs: [%[2]s, %[4]s]
    per: model_graph
    for: every
  - id: C4
    kind: better
    description: ISOLDA is significantly better than rdf_turtle3, in both variants.
    arm: isolda-0.2
    than: [rdf_turtle3]
    graphs: [%[2]s, %[4]s]
    per: model_graph
    for: every
  - id: C5
    kind: drop_not_larger
    description: ISOLDA's drop from English to Catalan is never significantly larger than that of the best paper format, in both variants.
    arm: isolda-0.2
    than: [list_of_edges, structured_yaml, structured_json, rdf_turtle3, json_ld3]
    best: true
    drops:
      - {from: %[1]s, to: %[2]s}
      - {from: %[3]s, to: %[4]s}
`, enR, caR, enP, caP)
}
