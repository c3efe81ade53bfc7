package kgllm

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/isolda/isolda/task"
)

func loadTestLabels(t *testing.T) Labels {
	t.Helper()
	f, err := os.Open("testdata/labels_ca.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := LoadLabels(f)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLoadLabels(t *testing.T) {
	l := loadTestLabels(t)
	if len(l) != 7 || l["P463"] != "membre de" || l["Q3024240"] != "país històric" {
		t.Errorf("labels %v", l)
	}
	for _, c := range []struct{ in, msg string }{
		{"Q1\tu\nQ1\tv\n", "line 2: Q1 listed twice"},
		{"Q1 u\n", "line 1: want <wikidata id><TAB><label>"},
		{"X1\tu\n", `line 1: "X1" is not a Wikidata id`},
		{"Q01\tu\n", `line 1: "Q01" is not a Wikidata id`},
		{"Q1\t\n", "line 1: empty label"},
		{"\nQ2\t\xff\n", "line 2: empty label or invalid UTF-8"},
	} {
		_, err := LoadLabels(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.msg)
		}
	}
}

// TestCatalanStudy converts the pseudonymized study to Catalan with a few
// labels and checks questions, answers and contexts written by hand, then
// the adapted scorer on every gold response.
func TestCatalanStudy(t *testing.T) {
	en := loadTestStudy(t, VariantPseudo)
	ca, err := en.Catalan(loadTestLabels(t))
	if err != nil {
		t.Fatal(err)
	}
	if ca.Language != LangCatalan || len(ca.Questions) != 500 {
		t.Fatalf("%s, %d questions", ca.Language, len(ca.Questions))
	}
	byID := map[string]int{}
	for i, q := range ca.Questions {
		byID[q.ID] = i
		if q.Meta["instance_key"] != en.Questions[i].Meta["instance_key"] || q.Meta["language"] != LangCatalan {
			t.Fatalf("%s: meta %v", q.ID, q.Meta)
		}
	}
	want := map[string][2]string{
		"kgllm-ca-pseudo-AggByRelation-000":         {"Fes servir només el graf de coneixement proporcionat per respondre la pregunta següent. Quantes relacions entrants de tipus 'membre de' té Agència Multilateral de Garantia d'Inversions? Respon en el format 'Resposta: <nombre>'. No escriguis res més que 'Resposta: <nombre>'", "3"},
		"kgllm-ca-pseudo-AggNeighborProperties-000": {"Fes servir només el graf de coneixement proporcionat per respondre la pregunta següent. Quantes de les entitats connectades directament a 'Federal Republic of Italica' tenen una propietat sortint de tipus 'seguit per' al graf de coneixement? Has de respondre en el format 'Resposta: <nombre>'. No escriguis res més que 'Resposta: <nombre>'", "2"},
		"kgllm-ca-pseudo-TripleRetrieval-000":       {`La teva resposta ha de consistir només en "Sí" o "No", res més. El fet següent, en forma de triplet, és present al graf de coneixement (Sí/No)? (Kakwa, membre de, Centre Internacional d'Arranjament de Diferències Relatives a Inversions)`, "No"},
		"kgllm-ca-pseudo-ShortestPath-000":          {"La teva tasca és trobar el camí més curt de Faithful Empire a Imperial State of Neo-Japan. Per exemple, si el camí més curt al graf de coneixement entre Argentina i Mèxic passa per Bolívia i Colòmbia, la teva resposta ha de ser \"CAMÍ MÉS CURT: ['Argentina', 'Bolívia', 'Colòmbia', 'Mèxic']\". La teva resposta ha de començar amb 'CAMÍ_MÉS_CURT:' seguit de la llista d'entitats del camí en el format mostrat abans. Tingues en compte que pots fer servir tant arestes entrants com sortints per formar un camí. \n\n Quin és el camí més curt de Faithful Empire a Imperial State of Neo-Japan? \n Resposta: CAMÍ MÉS CURT:", "CAMÍ MÉS CURT: ['Faithful Empire', 'país històric', 'Imperial State of Neo-Japan']"},
	}
	for id, w := range want {
		q := ca.Questions[byID[id]]
		if q.Text != w[0] || q.Gold.Text != w[1] {
			t.Errorf("%s:\n got %q -> %q\nwant %q -> %q", id, q.Text, q.Gold.Text, w[0], w[1])
		}
	}
	// The pseudonyms stay; the anchor (not a country) and the relation are
	// in Catalan in the context, and "diplomatic relation" too.
	i := byID["kgllm-ca-pseudo-AggByRelation-000"]
	text, err := ca.Context(i, FormatArm("list_of_edges"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "(Gyxoria, relació diplomàtica, Khanate of Northumbria)") || !strings.Contains(text, ", membre de, Agència Multilateral de Garantia d'Inversions)") || strings.Contains(text, "member of") {
		t.Errorf("list_of_edges context not in Catalan:\n%.600s", text)
	}
	_, user := Template(LangCatalan, "list_of_edges")(text, ca.Questions[i])
	if !strings.HasPrefix(user, "La teva feina és respondre preguntes fent servir el graf de coneixement següent. El graf de coneixement es presenta com una llista d'arestes dirigides de la forma (subjecte, relació, objecte).. Has de basar-te") ||
		!strings.Contains(user, "\n\nGraf de coneixement:\nEdges: [\n") || !strings.HasSuffix(user, "\n\n"+ca.Questions[i].Text) {
		t.Errorf("Catalan prompt:\n%.400s", user)
	}
	// Gold responses: the adapted scorer accepts all 500; the benchmark's
	// strict scorer, which knows only "Answer:" and "SHORTEST PATH:",
	// rejects every Catalan path and aggregation answer.
	adapted, strict := 0, 0
	for _, q := range ca.Questions {
		r := GoldResponse(q)
		if ca.Scorer().Score(q, r).Correct {
			adapted++
		} else {
			t.Errorf("%s: adapted scorer rejects %q", q.ID, r)
		}
		if Strict.Score(q, r).Correct {
			strict++
		}
	}
	msg := fmt.Sprintf("KG-LLM-Bench Catalan pseudo gold responses: adapted %d/500, benchmark's strict scorer %d/500", adapted, strict)
	t.Log(msg)
	if adapted != 500 || strict != 100 {
		t.Errorf("%s (want 500 and 100: TripleRetrieval only)", msg)
	}
	if _, err := ca.Catalan(Labels{}); err == nil {
		t.Error("a Catalan study converted twice")
	}
}

// TestAdaptedScorer checks the two adaptations on hand-made responses.
func TestAdaptedScorer(t *testing.T) {
	labels := []string{"Costa d'Ivori", "Guinea-Bissau", "Pal·lene", "Belgium"}
	for _, c := range []struct {
		resp string
		want bool
	}{
		{"Resposta: Costa d'Ivori", true},
		{"Resposta: Costa d’Ivori", false}, // another apostrophe: a different label
		{"Answer: Guinea-Bissau", true},
		{"Resposta:Pal·lene", true},
		{"Resposta: Belgium.", true},
		{"resposta: Belgium", false},
		{"Resposta: Belgium\nperquè", false},
		{"La resposta és Belgium", false},
	} {
		q := qHDN(labels)
		if got := Adapted.Score(q, c.resp).Correct; got != c.want {
			t.Errorf("%q: %v, want %v", c.resp, got, c.want)
		}
		// The benchmark's scorer rejects every label with those characters.
		if strings.ContainsAny(c.resp, "'-·") && Strict.Score(q, c.resp).Correct {
			t.Errorf("%q: strict scorer accepts it", c.resp)
		}
	}
	q := qAgg("12")
	for resp, want := range map[string]bool{"Resposta: 12": true, "Answer: 12": true, "Resposta 12": false, "Resposta: dotze": false} {
		if got := Adapted.Score(q, resp).Correct; got != want {
			t.Errorf("%q: %v, want %v", resp, got, want)
		}
	}
}

func qHDN(labels []string) task.Question {
	return task.Question{Task: HighestDegreeNode, Gold: task.Answer{Value: labels[0], Items: labels}}
}

func qAgg(n string) task.Question {
	return task.Question{Task: AggByRelation, Gold: task.Answer{Value: n}}
}
