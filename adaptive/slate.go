package adaptive

import (
	"fmt"
	"slices"
)

// Slate roles of a candidate.
const (
	RoleAnchor   = "anchor"   // one of the best compact formats overall
	RoleSemantic = "semantic" // the best semantically rich format overall
	RoleGuest    = "guest"    // a task-specific pick from the per-task ranking
)

// SlateOptions shape a slate; zero values mean the study's 2 + 1 + 2.
type SlateOptions struct {
	// Anchors is the number of compact anchors (0 means 2; -1 none).
	Anchors int
	// Semantic is the number of semantic anchors (0 means 1; -1 none).
	Semantic int
	// Size is the slate size (0 means 5): the rest are guests.
	Size int
}

func (o SlateOptions) norm() (anchors, semantic, size int) {
	anchors, semantic, size = o.Anchors, o.Semantic, o.Size
	if anchors == 0 {
		anchors = 2
	}
	if semantic == 0 {
		semantic = 1
	}
	if size == 0 {
		size = 5
	}
	return max(anchors, 0), max(semantic, 0), size
}

// Candidate is one format of a slate.
type Candidate struct {
	Format string `json:"format"`
	Role   string `json:"role"`
	// Prior is the calibration accuracy of the format on the question's
	// task, PriorN the number of calibration answers behind it (0: the
	// format has no answer on the task and Prior is its cross-task
	// accuracy).
	Prior  float64 `json:"prior"`
	PriorN int     `json:"prior_n"`
}

// BuildSlate returns the candidate slate of a task, in slate order: the
// Anchors best Compact formats of the cross-task ranking, the Semantic best
// Semantic formats of the same ranking, then guests, the best formats of the
// task's ranking (Calibration.TaskRanking) not yet on the slate, up to Size.
// When a class has fewer formats than asked, the remaining places go to
// guests; when fewer than Size formats were calibrated the slate is shorter.
func BuildSlate(c *Calibration, task string, opt SlateOptions) ([]Candidate, error) {
	anchors, semantic, size := opt.norm()
	if size < 1 || anchors+semantic > size {
		return nil, fmt.Errorf("adaptive: slate of %d with %d anchors and %d semantic anchors", size, anchors, semantic)
	}
	var out []Candidate
	on := func(f string) bool {
		return slices.ContainsFunc(out, func(x Candidate) bool { return x.Format == f })
	}
	add := func(f, role string) {
		cand := Candidate{Format: f, Role: role}
		if p, ok := c.Prior(task, f); ok {
			cand.Prior, cand.PriorN = p.Accuracy, p.N
		} else {
			for _, r := range c.Ranking {
				if r.Format == f {
					cand.Prior = r.Accuracy
				}
			}
		}
		out = append(out, cand)
	}
	pick := func(class Class, n int, role string) {
		for _, r := range c.Ranking {
			if n == 0 {
				return
			}
			if r.Class == class && !on(r.Format) {
				add(r.Format, role)
				n--
			}
		}
	}
	pick(Compact, anchors, RoleAnchor)
	pick(Semantic, semantic, RoleSemantic)
	guests := append(c.TaskRanking(task), c.Formats()...)
	for _, f := range guests {
		if len(out) == size {
			break
		}
		if !on(f) {
			add(f, RoleGuest)
		}
	}
	return out, nil
}
