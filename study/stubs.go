package study

import "errors"

var errTODO = errors.New("not built yet")

func todo(b *builder) error { return errTODO }

func text2kgStudy() *Study  { return &Study{Name: "text2kgbench", build: todo} }
func wikidataStudy() *Study { return &Study{Name: "wikidata-subgraphs", build: todo} }
