package eval

import (
	"encoding/json"
	"testing"

	"github.com/isolda/isolda/task"
)

func TestIsoldaOptionsString(t *testing.T) {
	var none *IsoldaOptions
	if got := none.String(); got != "" {
		t.Errorf("nil options: %q", got)
	}
	o := &IsoldaOptions{Spec: "0.2", Glossary: "legend", Theta: 0.5, InlineBnodes: true}
	if got, want := o.String(), "spec=0.2 glossary=legend theta=0.5 inline_bnodes"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// The arms recorded in the manifest leave the run id as it was without
// them: a run prepared before they existed still resumes.
func TestManifestArmsNotHashed(t *testing.T) {
	dir := t.TempDir()
	e := writeExp(t, dir, "http://127.0.0.1:1/v1", "")
	p := prepare(t, e, dir)
	m := p.Manifest
	if len(m.Arms) != 2 || m.Arms[0] != (ArmInfo{Name: "a1", Format: "b-ttl"}) || m.Arms[1] != (ArmInfo{Name: "a2", Format: "isolda", HideName: true}) {
		t.Errorf("arms %+v", m.Arms)
	}
	e.Arms[1].Options = &IsoldaOptions{Glossary: "legend"}
	p2 := prepare(t, e, dir)
	if p2.Manifest.Arms[1].Options != "glossary=legend" {
		t.Errorf("options recorded as %q", p2.Manifest.Arms[1].Options)
	}
	// The id is the hash of the manifest without id and arms.
	bare := m
	bare.RunID, bare.Arms = "", nil
	b, err := json.Marshal(bare)
	if err != nil {
		t.Fatal(err)
	}
	if id := task.SHA1Hex(string(b))[:16]; id != m.RunID || p2.Manifest.RunID == "" {
		t.Errorf("run id %s, the hash of the manifest without arms %s", m.RunID, id)
	}
}
