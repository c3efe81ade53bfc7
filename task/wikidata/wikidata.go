// Package wikidata is the Wikidata-subgraph experiment of "Graph
// Serializations for Reasoning LLMs" (seed 001, "Reasoning over retrieved
// Wikidata subgraphs"): seed entities, each one's two-hop neighbourhood
// capped at 450 triples, entity labels pseudonymized (predicate labels and
// the classes entities are typed with kept), and questions of three
// families (relation-specific aggregation, typed entity aggregation,
// multi-hop reachability) with gold answers computed on the subgraph,
// rendered in the study's 15 graph formats.
//
// The data comes from Wikidata entity JSON the user gives: files saved
// from Special:EntityData (one {"entities": {...}} document each), JSON
// Lines with one entity per line, or a dump (latest-all.json: a JSON
// array with one entity per line). Nothing is fetched.
package wikidata

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/internal/jsonl"
)

// Entity is what the experiment reads of a Wikidata item or property: its
// label in the chosen language and its item-valued statements.
type Entity struct {
	ID    string // Q… or P…
	Label string // empty when the entity has no label in the language
	// Claims are the item-valued statements (wikibase-entityid values of
	// main snaks), by property in increasing property number, values in
	// the entity's order, without duplicates.
	Claims []Claim
}

// Claim is one item-valued statement.
type Claim struct {
	Property string // P…
	Value    string // Q…
}

// Store holds entities by id.
type Store struct {
	// Language is the label language (default "en").
	Language string
	entities map[string]*Entity
}

// NewStore returns an empty store reading labels in lang ("" means "en").
func NewStore(lang string) *Store {
	if lang == "" {
		lang = "en"
	}
	return &Store{Language: lang, entities: map[string]*Entity{}}
}

// Entity returns the entity with the given id.
func (s *Store) Entity(id string) (*Entity, bool) {
	e, ok := s.entities[id]
	return e, ok
}

// Len returns the number of entities.
func (s *Store) Len() int { return len(s.entities) }

// Label returns an entity's label, or its id when it has none.
func (s *Store) Label(id string) string {
	if e, ok := s.entities[id]; ok && e.Label != "" {
		return e.Label
	}
	return id
}

// MaxEntityLine bounds one line (one entity) of an entity file or dump.
const MaxEntityLine = 64 << 20

type rawEntity struct {
	ID     string `json:"id"`
	Labels map[string]struct {
		Value string `json:"value"`
	} `json:"labels"`
	Claims map[string][]struct {
		Mainsnak struct {
			Datavalue struct {
				Type  string          `json:"type"`
				Value json.RawMessage `json:"value"`
			} `json:"datavalue"`
		} `json:"mainsnak"`
	} `json:"claims"`
}

// Load reads entity JSON from r (file names it in errors): a document
// {"entities": {...}}, or one entity object per line (JSON Lines, or a
// dump whose lines are array elements followed by commas, between "[" and
// "]" lines). An entity read twice keeps its first reading. Malformed
// lines are errors naming file and line.
func (s *Store) Load(r io.Reader, file string) error {
	br := bufio.NewReaderSize(r, 1<<20)
	first, err := br.Peek(1)
	for err == nil && len(first) == 1 && (first[0] == ' ' || first[0] == '\n' || first[0] == '\r' || first[0] == '\t') {
		if _, err = br.ReadByte(); err == nil {
			first, err = br.Peek(1)
		}
	}
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	if first[0] == '{' {
		// A document or JSON Lines: try the whole input as one document
		// first when it holds "entities".
		all, err := io.ReadAll(io.LimitReader(br, MaxEntityLine+1))
		if err != nil {
			return err
		}
		if len(all) > MaxEntityLine {
			return fmt.Errorf("%s: larger than %d bytes; give a dump with one entity per line", file, MaxEntityLine)
		}
		var doc struct {
			Entities map[string]json.RawMessage `json:"entities"`
		}
		if json.Unmarshal(all, &doc) == nil && doc.Entities != nil {
			ids := make([]string, 0, len(doc.Entities))
			for id := range doc.Entities {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			for _, id := range ids {
				if err := s.add(doc.Entities[id]); err != nil {
					return fmt.Errorf("%s: entity %s: %v", file, id, err)
				}
			}
			return nil
		}
		return s.loadLines(bufio.NewReader(bytes.NewReader(all)), file)
	}
	return s.loadLines(br, file)
}

func (s *Store) loadLines(br *bufio.Reader, file string) error {
	for line := 1; ; line++ {
		b, err := jsonl.ReadLine(br, MaxEntityLine)
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: %v", file, line, err)
		}
		t := bytes.TrimSpace(b)
		t = bytes.TrimSuffix(t, []byte(","))
		if len(t) > 0 && !bytes.Equal(t, []byte("[")) && !bytes.Equal(t, []byte("]")) {
			if e := s.add(t); e != nil {
				return fmt.Errorf("%s:%d: %v", file, line, e)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

func (s *Store) add(b []byte) error {
	var r rawEntity
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	if !validID(r.ID) {
		return fmt.Errorf("entity id %q is not Q or P and digits", r.ID)
	}
	if _, seen := s.entities[r.ID]; seen {
		return nil
	}
	e := &Entity{ID: r.ID, Label: r.Labels[s.Language].Value}
	props := make([]string, 0, len(r.Claims))
	for p := range r.Claims {
		if validID(p) && p[0] == 'P' {
			props = append(props, p)
		}
	}
	slices.SortFunc(props, compareIDs)
	for _, p := range props {
		seen := map[string]bool{}
		for _, c := range r.Claims[p] {
			dv := c.Mainsnak.Datavalue
			if dv.Type != "wikibase-entityid" {
				continue
			}
			var v struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(dv.Value, &v) != nil || !validID(v.ID) || v.ID[0] != 'Q' || seen[v.ID] {
				continue
			}
			seen[v.ID] = true
			e.Claims = append(e.Claims, Claim{Property: p, Value: v.ID})
		}
	}
	s.entities[r.ID] = e
	return nil
}

func validID(id string) bool {
	if len(id) < 2 || (id[0] != 'Q' && id[0] != 'P') || id[1] == '0' {
		return false
	}
	_, err := strconv.ParseUint(id[1:], 10, 64)
	return err == nil
}

// compareIDs orders ids by letter, then number.
func compareIDs(a, b string) int {
	if a[0] != b[0] {
		return int(a[0]) - int(b[0])
	}
	x, _ := strconv.ParseUint(a[1:], 10, 64)
	y, _ := strconv.ParseUint(b[1:], 10, 64)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return strings.Compare(a, b)
}
