// Layout: the quads of each graph grouped into tables (one per class) and
// rows (one per entity), keys and values in document order.

package isolda

import (
	"cmp"
	"slices"
	"strings"

	"github.com/isolda/isolda/isolda/internal/syntax"
	"github.com/isolda/isolda/rdf"
)

// classOf returns the column key of a quad's object.
func (e *encoder) classOf(p, o rdf.TermID) gkey {
	t := e.term(o)
	switch {
	case p == e.typeID && t.Kind == rdf.IRIKind:
		return gkey{pred: p, cls: syntax.ClsType}
	case e.entity[o]:
		return gkey{pred: p, cls: syntax.ClsLink}
	case t.Kind == rdf.IRIKind:
		return gkey{pred: p, cls: syntax.ClsIRI}
	case t.Lang != "":
		return gkey{pred: p, cls: syntax.ClsLang, lang: t.Lang, dir: t.Dir}
	case t.Datatype == rdf.XSDString:
		return gkey{pred: p, cls: syntax.ClsPlain}
	}
	return gkey{pred: p, cls: syntax.ClsTyped, dt: t.Datatype}
}

// layout groups the quads of each graph into tables and rows.
func (e *encoder) layout() {
	qs := e.d.IDQuads()
	idx := make([]int, len(qs))
	for i := range idx {
		idx[i] = i
	}
	cmpGraph := func(a, b rdf.TermID) int {
		if a == b {
			return 0
		}
		if a == 0 {
			return -1
		}
		if b == 0 {
			return 1
		}
		return e.cmpNode(a, b)
	}
	if e.graphCol {
		// 0.4 @graph column: one part; a row per entity and graph, in
		// document order, then graph order.
		slices.SortFunc(idx, func(a, b int) int {
			qa, qb := qs[a], qs[b]
			if c := cmp.Compare(e.pos[qa[0]], e.pos[qb[0]]); c != 0 {
				return c
			}
			return cmpGraph(qa[3], qb[3])
		})
		e.parts = []graphPart{e.layoutGraph(0, qs, idx)}
		return
	}
	slices.SortFunc(idx, func(a, b int) int {
		qa, qb := qs[a], qs[b]
		if c := cmpGraph(qa[3], qb[3]); c != 0 {
			return c
		}
		return cmp.Compare(e.pos[qa[0]], e.pos[qb[0]])
	})
	for i := 0; i < len(idx); {
		g := qs[idx[i]][3]
		j := i
		for j < len(idx) && qs[idx[j]][3] == g {
			j++
		}
		e.parts = append(e.parts, e.layoutGraph(g, qs, idx[i:j]))
		i = j
	}
}

func (e *encoder) layoutGraph(g rdf.TermID, qs []rdf.IDQuad, idx []int) graphPart {
	type subj struct {
		id    rdf.TermID
		graph rdf.TermID
		quads []int
	}
	var subs []subj
	for i := 0; i < len(idx); {
		s, sg := qs[idx[i]][0], qs[idx[i]][3]
		j := i
		for j < len(idx) && qs[idx[j]][0] == s && qs[idx[j]][3] == sg {
			j++
		}
		subs = append(subs, subj{s, sg, idx[i:j]})
		i = j
	}
	// Entities per class in this graph.
	classCount := map[rdf.TermID]int{}
	for _, s := range subs {
		for _, k := range s.quads {
			q := qs[k]
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
				classCount[q[2]]++
			}
		}
	}
	part := graphPart{name: g}
	type kv struct {
		k gkey
		v rdf.TermID
	}
	var kvs []kv // reused for every subject
	tables := map[rdf.TermID]*table{}
	inlineCount := map[rdf.TermID]int{}
	for _, s := range subs {
		if e.listNode[s.id] {
			continue
		}
		main := rdf.TermID(0)
		for _, k := range s.quads {
			q := qs[k]
			if q[1] == e.typeID && e.term(q[2]).Kind == rdf.IRIKind {
				c := q[2]
				if main == 0 || classCount[c] > classCount[main] ||
					(classCount[c] == classCount[main] && e.term(c).Value < e.term(main).Value) {
					main = c
				}
			}
		}
		r := &row{ent: s.id, graph: s.graph}
		kvs = kvs[:0]
		for _, k := range s.quads {
			q := qs[k]
			if q[1] == e.typeID && q[2] == main {
				continue
			}
			kvs = append(kvs, kv{e.classOf(q[1], q[2]), q[2]})
		}
		slices.SortFunc(kvs, func(a, b kv) int {
			if c := e.cmpKey(a.k, b.k); c != 0 {
				return c
			}
			return e.cmpVal(a.k.cls, a.v, b.v)
		})
		// One allocation for the groups and one for their values, which
		// are capped sub-slices of it.
		ngroups := 0
		for i := range kvs {
			if i == 0 || kvs[i].k != kvs[i-1].k {
				ngroups++
			}
		}
		if len(kvs) > 0 {
			vals := make([]rdf.TermID, len(kvs))
			for i, x := range kvs {
				vals[i] = x.v
			}
			r.groups = make([]group, 0, ngroups)
			for i := 0; i < len(kvs); {
				j := i
				for j < len(kvs) && kvs[j].k == kvs[i].k {
					j++
				}
				r.groups = append(r.groups, group{key: kvs[i].k, vals: vals[i:j:j]})
				i = j
			}
		}
		if e.inline[s.id] {
			e.inlineRows[s.id] = inlineEnt{row: r, main: main}
			inlineCount[main]++
			continue
		}
		t := tables[main]
		if t == nil {
			t = &table{class: main}
			tables[main] = t
			part.tables = append(part.tables, t)
		}
		t.rows = append(t.rows, r)
	}
	// Inline blank nodes that are not subjects count as Thing_.
	for _, k := range idx {
		if o := qs[k][2]; e.inline[o] {
			if e.inlineRows[o].row == nil {
				e.inlineRows[o] = inlineEnt{row: &row{ent: o}}
				inlineCount[0]++
			}
		}
	}
	for _, t := range part.tables {
		if !e.v04 { // 0.4 counts nested entities in no table header
			t.inlineN = inlineCount[t.class]
		}
	}
	return part
}

func (e *encoder) cmpKey(a, b gkey) int {
	if a.pred != b.pred {
		if c := strings.Compare(e.term(a.pred).Value, e.term(b.pred).Value); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.cls, b.cls); c != 0 {
		return c
	}
	if c := strings.Compare(a.dt, b.dt); c != 0 {
		return c
	}
	if c := strings.Compare(a.lang, b.lang); c != 0 {
		return c
	}
	return strings.Compare(a.dir, b.dir)
}

func (e *encoder) cmpVal(cls uint8, a, b rdf.TermID) int {
	if cls == syntax.ClsLink {
		return cmp.Compare(e.pos[a], e.pos[b])
	}
	return rdf.Compare(e.term(a), e.term(b))
}

// labelKey is the label column a row's label would use.
func (e *encoder) labelKey(r *row) (gkey, bool) {
	lv := e.labelVal[r.ent]
	if lv == 0 || !e.labelOK[r.ent] {
		return gkey{}, false
	}
	for _, gr := range r.groups {
		for _, v := range gr.vals {
			if v == lv && labelRank(e.term(gr.key.pred).Value) >= 0 {
				return gr.key, true
			}
		}
	}
	return gkey{}, false
}
