package kgllm

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isolda/isolda/formats/kgllmbench"
	"github.com/isolda/isolda/internal/py"
	"github.com/isolda/isolda/task"
)

// The Catalan study (ISOLDA paper §4.7): the same 500 instances, real
// names with the Catalan label of each entity and relation where one
// exists, or the benchmark's pseudonyms with relations, instructions and
// questions in Catalan. The answer keyword is «Resposta:» and ShortestPath's
// is «CAMÍ MÉS CURT:». The translations are ours; each keeps the English
// text's structure, its quirks included (the question of ShortestPath asks
// for 'CAMÍ_MÉS_CURT:' with underscores, as the benchmark's asks for
// 'SHORTEST_PATH:').

// Keywords of the Catalan answers.
const (
	AnswerKeywordCA = "Resposta:"
	PathKeywordCA   = "CAMÍ MÉS CURT:"
)

var descriptionsCA = map[string]string{
	"list_of_edges":   "El graf de coneixement es presenta com una llista d'arestes dirigides de la forma (subjecte, relació, objecte).",
	"structured_yaml": "El graf de coneixement es presenta en un format YAML estructurat. Cada entitat és una clau, i el valor és un diccionari de relacions i objectes.",
	"structured_json": "El graf de coneixement es presenta en un format JSON estructurat. Cada entitat és una clau, i el valor és un diccionari de relacions i objectes.",
	"rdf_turtle2":     "El graf de coneixement es presenta en format RDF Turtle amb identificadors de node i relacions codificades com a URI.",
	"rdf_turtle3":     "El graf de coneixement es presenta en format RDF Turtle amb identificadors de node i identificadors de relació.",
	"json_ld2":        "El graf de coneixement es presenta en format JSON-LD amb identificadors de node i relacions codificades com a URI.",
	"json_ld3":        "El graf de coneixement es presenta en format JSON-LD amb identificadors de node i identificadors de relació.",
	FormatISOLDA:      "El graf de coneixement es presenta en el format ISOLDA: un glossari de la notació i després una taula per a cada tipus d'entitat, amb una fila per entitat i les seves relacions com a columnes.",
}

// promptCA is the Catalan structure_prompt.
func promptCA(format, text, question string) string {
	intro := "La teva feina és respondre preguntes fent servir el graf de coneixement següent. " + descriptionsCA[format] +
		". Has de basar-te exclusivament en la informació presentada al graf de coneixement per respondre les preguntes. " +
		"Si la resposta inclou entitats, respon sempre amb l'etiqueta de l'entitat i no amb el seu identificador (si escau)."
	return intro + "\n\nGraf de coneixement:\n" + text + "\n\n" + question
}

// TripleRetrievalQuestionCA is TripleRetrieval's question in Catalan; the
// answer is "Sí" or "No".
func TripleRetrievalQuestionCA(head, relation, tail string) string {
	return `La teva resposta ha de consistir només en "Sí" o "No", res més. El fet següent, en forma de triplet, és present al graf de coneixement (Sí/No)? (` + head + ", " + relation + ", " + tail + ")"
}

// ShortestPathQuestionCA is ShortestPath's question in Catalan.
func ShortestPathQuestionCA(from, to string) string {
	return "La teva tasca és trobar el camí més curt de " + from + " a " + to + `. Per exemple, si el camí més curt al graf de coneixement entre Argentina i Mèxic passa per Bolívia i Colòmbia, la teva resposta ha de ser "CAMÍ MÉS CURT: ['Argentina', 'Bolívia', 'Colòmbia', 'Mèxic']". La teva resposta ha de començar amb 'CAMÍ_MÉS_CURT:' seguit de la llista d'entitats del camí en el format mostrat abans. Tingues en compte que pots fer servir tant arestes entrants com sortints per formar un camí. ` + "\n\n Quin és el camí més curt de " + from + " a " + to + "? \n Resposta: CAMÍ MÉS CURT:"
}

// directionCA translates the benchmark's edge directions.
var directionCA = map[string]string{"outgoing": "sortints", "incoming": "entrants", "total": "totals"}

// HighestDegreeNodeQuestionCA is HighestDegreeNode's question in Catalan
// for a direction "outgoing", "incoming" or "total".
func HighestDegreeNodeQuestionCA(direction string) string {
	return "Fes servir només el graf de coneixement proporcionat per respondre la pregunta següent. Quina entitat té el nombre més gran d'arestes " + directionCA[direction] + ` al graf de coneixement proporcionat? Si hi ha un empat, tria'n una. Respon amb l'etiqueta de l'entitat fent servir el format 'Resposta: <etiqueta de l'entitat>'. Per exemple, si la resposta és Bèlgica, respon "Resposta: Bèlgica". La teva resposta ha de començar amb 'Resposta:' i després donar l'entitat per la seva etiqueta. No escriguis res més.`
}

// AggByRelationQuestionCA is AggByRelation's question in Catalan.
func AggByRelationQuestionCA(anchor, relation, direction string) string {
	return "Fes servir només el graf de coneixement proporcionat per respondre la pregunta següent. Quantes relacions " + directionCA[direction] + " de tipus '" + relation + "' té " + anchor + "? Respon en el format 'Resposta: <nombre>'. No escriguis res més que 'Resposta: <nombre>'"
}

// AggNeighborPropertiesQuestionCA is AggNeighborProperties's question in
// Catalan.
func AggNeighborPropertiesQuestionCA(anchor, relation string) string {
	return "Fes servir només el graf de coneixement proporcionat per respondre la pregunta següent. Quantes de les entitats connectades directament a '" + anchor + "' tenen una propietat sortint de tipus '" + relation + "' al graf de coneixement? Has de respondre en el format 'Resposta: <nombre>'. No escriguis res més que 'Resposta: <nombre>'"
}

// PathAnswerCA renders a path as the Catalan answer string: "CAMÍ MÉS
// CURT: " + Python's list repr.
func PathAnswerCA(labels []string) string {
	return PathKeywordCA + " " + py.ReprList(labels)
}

// ---- labels ----

// Labels maps Wikidata ids (Q… for entities, P… for relations) to labels
// in one language.
type Labels map[string]string

// MaxLabelsBytes bounds a labels file.
const MaxLabelsBytes = 64 << 20

// LoadLabels reads labels as tab-separated lines "<wikidata id>\t<label>"
// (a first line "wikidata_id\tlabel" is a header; empty lines are
// skipped). A repeated id, a line without a tab, an id that is not Q or P
// followed by digits, an empty label or invalid UTF-8 is an error naming
// the line. Catalan labels for the study can be exported from Wikidata,
// e.g. with the query service, for the entities and relations the
// instances list.
func LoadLabels(r io.Reader) (Labels, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxLabelsBytes+1))
	out := Labels{}
	read := 0
	for line := 1; ; line++ {
		s, err := br.ReadString('\n')
		read += len(s)
		if read > MaxLabelsBytes {
			return nil, fmt.Errorf("kgllm: labels: line %d: file larger than %d bytes", line, MaxLabelsBytes)
		}
		if s == "" && err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		s = strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
		if s == "" || (line == 1 && s == "wikidata_id\tlabel") {
			continue
		}
		id, label, ok := strings.Cut(s, "\t")
		if !ok {
			return nil, fmt.Errorf("kgllm: labels: line %d: want <wikidata id><TAB><label>", line)
		}
		if !wikidataID(id) {
			return nil, fmt.Errorf("kgllm: labels: line %d: %q is not a Wikidata id (Q or P and digits)", line, id)
		}
		if label == "" || !utf8.ValidString(label) {
			return nil, fmt.Errorf("kgllm: labels: line %d: empty label or invalid UTF-8", line)
		}
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("kgllm: labels: line %d: %s listed twice", line, id)
		}
		out[id] = label
	}
}

func wikidataID(s string) bool {
	if len(s) < 2 || (s[0] != 'Q' && s[0] != 'P') {
		return false
	}
	_, err := strconv.ParseUint(s[1:], 10, 64)
	return err == nil && s[1] != '0'
}

// instanceFields are the stored fields the questions are built from.
type instanceFields struct {
	Triple *struct {
		Head     entity `json:"head"`
		Relation struct {
			WikidataID string `json:"wikidata_id"`
			Label      string `json:"label"`
		} `json:"relation"`
		Tail entity `json:"tail"`
	} `json:"triple"`
	ShortestPaths [][]entity `json:"shortest_paths"`
	EdgeDirection string     `json:"edge_direction"`
	AnchorEnt     *entity    `json:"anchor_ent"`
	Relation      string     `json:"relation"`
	Direction     string     `json:"direction"`
}

// Catalan returns the study in Catalan (§4.7): every entity label replaced
// by its Catalan label where labels has one (pseudonyms excepted), every
// relation label likewise, and the questions and answers rebuilt in
// Catalan from the instances' stored fields. The study must be English.
// Entities and relations without a Catalan label keep their label.
func (s *Study) Catalan(labels Labels) (*Study, error) {
	if s.Language != LangEnglish {
		return nil, fmt.Errorf("kgllm: the study is already in %q", s.Language)
	}
	// Relation labels by their English label, for edges whose relation
	// was refined out of their instance's relation list.
	relByLabel := map[string]string{}
	for _, inst := range s.Instances {
		for _, r := range inst.KG.Relations {
			if ca, ok := labels[r.WikidataID]; ok {
				relByLabel[r.Label] = ca
			}
		}
	}
	relCA := func(wikidata, label string) string {
		if ca, ok := labels[wikidata]; ok && wikidata != "" {
			return ca
		}
		if ca, ok := relByLabel[label]; ok {
			return ca
		}
		return label
	}
	out := &Study{Variant: s.Variant, Language: LangCatalan}
	for _, inst := range s.Instances {
		ci, q, err := catalanInstance(inst, labels, relCA)
		if err != nil {
			return nil, fmt.Errorf("kgllm: %s: %w", instanceKey(inst), err)
		}
		out.Instances = append(out.Instances, ci)
		out.Questions = append(out.Questions, q)
	}
	return out, nil
}

func catalanInstance(inst kgllmbench.Instance, labels Labels, relCA func(wikidata, label string) string) (kgllmbench.Instance, task.Question, error) {
	pseudo := map[string]string{}
	for _, p := range inst.Pseudonyms {
		pseudo[p.EntityID] = p.Name
	}
	// label of an entity in the Catalan instance.
	label := func(e entity) string {
		if p, ok := pseudo[e.EntityID.String()]; ok {
			return p
		}
		if ca, ok := labels[e.WikidataID]; ok && e.WikidataID != "" {
			return ca
		}
		return e.Label
	}
	ci := inst
	ci.KG.Entities = append([]kgllmbench.Entity(nil), inst.KG.Entities...)
	for i, e := range ci.KG.Entities {
		ci.KG.Entities[i].Label = label(entity{EntityID: json.Number(e.ID), WikidataID: e.WikidataID, Label: e.Label})
	}
	relWD := map[string]string{}
	ci.KG.Relations = append([]kgllmbench.Relation(nil), inst.KG.Relations...)
	for i, r := range ci.KG.Relations {
		relWD[r.ID] = r.WikidataID
		ci.KG.Relations[i].Label = relCA(r.WikidataID, r.Label)
	}
	ci.KG.Edges = append([]kgllmbench.Edge(nil), inst.KG.Edges...)
	for i, e := range ci.KG.Edges {
		if e.RelationLabel != "" {
			ci.KG.Edges[i].RelationLabel = relCA(relWD[e.Relation], e.RelationLabel)
		}
	}
	var f instanceFields
	if err := json.Unmarshal(inst.Fields, &f); err != nil {
		return ci, task.Question{}, fmt.Errorf("fields: %w", err)
	}
	q, err := InstanceQuestion(inst)
	if err != nil {
		return ci, task.Question{}, err
	}
	q.ID = strings.Replace(q.ID, "kgllm-", "kgllm-ca-", 1)
	q.Meta["language"] = LangCatalan
	q.Meta["instance_key"] = instanceKey(inst)
	var answer any
	switch inst.Task {
	case TripleRetrieval:
		if f.Triple == nil {
			return ci, q, errors.New("no triple field")
		}
		q.Text = TripleRetrievalQuestionCA(label(f.Triple.Head), relCA(f.Triple.Relation.WikidataID, f.Triple.Relation.Label), label(f.Triple.Tail))
		yes := q.Gold.Value == "yes"
		q.Gold = task.Answer{Text: map[bool]string{true: "Sí", false: "No"}[yes], Kind: task.KindYesNo, Value: q.Gold.Value}
		answer = q.Gold.Text
	case ShortestPath:
		if len(f.ShortestPaths) == 0 || len(f.ShortestPaths[0]) < 2 {
			return ci, q, errors.New("no shortest path field")
		}
		var answers []string
		var first []string
		for i, path := range f.ShortestPaths {
			var ls []string
			for _, e := range path {
				ls = append(ls, label(e))
			}
			if i == 0 {
				first = ls
			}
			answers = append(answers, PathAnswerCA(ls))
		}
		q.Text = ShortestPathQuestionCA(first[0], first[len(first)-1])
		q.Gold = task.Answer{Text: answers[0], Kind: task.KindList, Value: answers[0], Items: first}
		if len(answers) > 1 {
			q.Gold.Alternatives = answers[1:]
		}
		answer = answers
	case HighestDegreeNode:
		var es []entity
		if err := json.Unmarshal(inst.Answer, &es); err != nil {
			return ci, q, err
		}
		var ls []string
		for _, e := range es {
			ls = append(ls, label(e))
		}
		q.Text = HighestDegreeNodeQuestionCA(f.EdgeDirection)
		q.Gold = task.Answer{Text: ls[0], Kind: task.KindNode, Value: ls[0], Items: ls}
		if len(ls) > 1 {
			q.Gold.Alternatives = ls[1:]
		}
		for i := range es {
			es[i].Label = ls[i]
		}
		answer = es
	case AggByRelation, AggNeighborProperties:
		if f.AnchorEnt == nil {
			return ci, q, errors.New("no anchor_ent field")
		}
		rel := relCA("", f.Relation)
		if inst.Task == AggByRelation {
			q.Text = AggByRelationQuestionCA(label(*f.AnchorEnt), rel, f.Direction)
		} else {
			q.Text = AggNeighborPropertiesQuestionCA(label(*f.AnchorEnt), rel)
		}
		answer = []string{q.Gold.Value}
	}
	b, err := json.Marshal(answer)
	if err != nil {
		return ci, q, err
	}
	ci.Question, ci.Answer = q.Text, b
	return ci, q, nil
}

// ---- the adapted scorer ----

// Adapted is the benchmark's strict scorer adapted for the Catalan study
// (§4.7) in the two ways the ISOLDA paper pre-registered, and nothing
// else: it accepts the Catalan keywords («Resposta:» beside "Answer:",
// «CAMÍ MÉS CURT:» beside "SHORTEST PATH:"), and HighestDegreeNode's label
// may contain apostrophes (' and ’), hyphens (-, ‐, ‑) and the middle dot
// (·) besides Python's \w and \s. English runs are rescored with it too.
var Adapted task.Scorer = task.ScorerFunc(scoreAdapted)

// Rules of the adapted scorer.
const (
	RuleAdaptedPath   = "kgllm_adapted_path_literal_eval"
	RuleAdaptedLabel  = "kgllm_adapted_answer_label"
	RuleAdaptedNumber = "kgllm_adapted_answer_number"
)

var adaptedKeywords = []string{"Answer:", AnswerKeywordCA}

// isAdaptedLabelRune is the adapted label class: \w, \s, apostrophes,
// hyphens and the middle dot.
func isAdaptedLabelRune(r rune) bool {
	switch r {
	case '\'', '’', '-', '‐', '‑', '·':
		return true
	}
	return py.IsWord(r) || py.IsSpace(r)
}

func scoreAdapted(q task.Question, response string) task.Result {
	switch q.Task {
	case TripleRetrieval:
		return EvalTripleRetrieval(response, q.Gold.Text)
	case ShortestPath:
		r := strings.ReplaceAll(strings.ReplaceAll(response, "SHORTEST PATH:", ""), PathKeywordCA, "")
		if i := strings.IndexByte(r, '\n'); i >= 0 {
			r = r[:i]
		}
		answers := goldList(q.Gold)
		stripped := make([]string, len(answers))
		for i, a := range answers {
			stripped[i] = strings.ReplaceAll(a, PathKeywordCA, "SHORTEST PATH:")
		}
		return comparePath(py.Strip(r), stripped, RuleAdaptedPath)
	case HighestDegreeNode:
		g, ok := answerLabel(response, adaptedKeywords, isAdaptedLabelRune)
		if !ok {
			return task.Result{Rule: RuleAdaptedLabel}
		}
		for _, l := range goldLabels(q.Gold) {
			if g == l {
				return task.Result{Correct: true, Score: 1, Parsed: g, Rule: RuleAdaptedLabel}
			}
		}
		return task.Result{Parsed: g, Rule: RuleAdaptedLabel}
	case AggByRelation, AggNeighborProperties:
		g, ok := answerNumber(response, adaptedKeywords)
		if !ok {
			return task.Result{Rule: RuleAdaptedNumber}
		}
		return result(sameInt(g, q.Gold.Value), g, RuleAdaptedNumber)
	}
	return task.Result{Rule: task.RuleNoAnswer}
}
