package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/isolda/isolda/eval"
)

// PreparedFile in a run folder holds the fingerprint of the inputs the
// run's plan was made from (Fingerprint) and the run id they gave, so that
// resuming a finished run with the same inputs need not prepare the plan
// again (Finished). It is a cache: a run folder without it is complete.
const PreparedFile = "prepared.json"

// prepared is the content of PreparedFile.
type prepared struct {
	Fingerprint string `json:"fingerprint"`
	RunID       string `json:"run_id"`
}

// Fingerprint hashes (SHA-256) what the plan of e is made of, without
// making it: this program (the bytes of its executable), the experiment
// as loaded (after any change to its models), its folder baseDir, and the
// bytes of every file it reads (Experiment.InputFiles). The same
// fingerprint means the same plan. It returns "" when it cannot tell: an
// experiment with a token budget (its tokenizers shape the plan too), or
// an input or the executable it cannot read.
func Fingerprint(e *eval.Experiment, baseDir string) string {
	if e.HasBudget() {
		return ""
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(baseDir)
	if err != nil {
		return ""
	}
	ej, err := json.Marshal(e)
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "isolda eval plan inputs 1\nexperiment %d %s\nfolder %q\n", len(ej), ej, abs)
	for _, path := range append([]string{exe}, e.InputFiles(baseDir)...) {
		f, err := os.Open(path)
		if err != nil {
			return ""
		}
		fh := sha256.New()
		n, err := io.Copy(fh, f)
		f.Close()
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "file %q %d %x\n", path, n, fh.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writePrepared records in dir that the inputs with fingerprint fp make
// the run runID.
func writePrepared(dir, fp, runID string) error {
	b, err := json.Marshal(prepared{Fingerprint: fp, RunID: runID})
	if err != nil {
		return err
	}
	return writeFileSync(filepath.Join(dir, PreparedFile), append(b, '\n'))
}

// Finished reports whether dir holds a run made from inputs with the
// fingerprint fp (Fingerprint, recorded by a Run with
// RunOptions.Fingerprint) whose frozen files are intact and whose every
// call is answered in its log: a resume with nothing to do. It returns the
// run's manifest then. Any doubt (no fingerprint, other inputs, a frozen
// file changed, a call not answered, a record of another run) answers
// false: the caller then prepares the plan and resumes as usual, which
// says what is wrong.
func Finished(dir, fp string) (*eval.Manifest, bool) {
	if fp == "" {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(dir, PreparedFile))
	if err != nil {
		return nil, false
	}
	var pr prepared
	if json.Unmarshal(b, &pr) != nil || pr.Fingerprint != fp {
		return nil, false
	}
	b, err = os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, false
	}
	var m eval.Manifest
	if json.Unmarshal(b, &m) != nil || m.RunID != pr.RunID || m.Calls == 0 {
		return nil, false
	}
	if len(verifyFrozen(dir, &m)) > 0 {
		return nil, false
	}
	done, err := answeredKeys(filepath.Join(dir, AnswersFile), m.RunID)
	if err != nil || len(done) != m.Calls {
		return nil, false
	}
	return &m, true
}
