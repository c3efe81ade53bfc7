package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/isolda/isolda/rdf"
)

// maxObservationLine bounds one JSON line of ReadObservations.
const maxObservationLine = 1 << 20

// ReadObservations reads observations as JSON Lines: one JSON object with
// the fields of Observation per line; blank lines are skipped. Unknown
// fields, malformed lines, missing arm, model or question_id, and negative
// token counts are *rdf.ParseError with the line (and, for syntax errors,
// the column). At most limit observations are read (0 means no limit);
// more is an error wrapping rdf.ErrLimit.
func ReadObservations(r io.Reader, file string, limit int) ([]Observation, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxObservationLine)
	var obs []Observation
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if limit > 0 && len(obs) >= limit {
			return nil, &rdf.ParseError{File: file, Line: line, Column: 1, Msg: fmt.Sprintf("more than %d observations", limit), Err: rdf.ErrLimit}
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var o Observation
		if err := dec.Decode(&o); err != nil {
			col := 1
			if se, ok := err.(*json.SyntaxError); ok {
				col = int(se.Offset)
			}
			return nil, &rdf.ParseError{File: file, Line: line, Column: col, Msg: err.Error()}
		}
		if dec.More() {
			return nil, &rdf.ParseError{File: file, Line: line, Column: int(dec.InputOffset()) + 1, Msg: "more than one JSON value on the line"}
		}
		switch {
		case o.Arm == "" || o.Model == "" || o.QuestionID == "":
			return nil, &rdf.ParseError{File: file, Line: line, Column: 1, Msg: "observation needs arm, model and question_id"}
		case o.InputTokens < 0 || o.OutputTokens < 0:
			return nil, &rdf.ParseError{File: file, Line: line, Column: 1, Msg: "negative token count"}
		}
		obs = append(obs, o)
	}
	if err := sc.Err(); err != nil {
		pe := &rdf.ParseError{File: file, Line: line + 1, Column: 1, Msg: err.Error()}
		if errors.Is(err, bufio.ErrTooLong) {
			pe.Err = rdf.ErrLimit
		}
		return nil, pe
	}
	return obs, nil
}
