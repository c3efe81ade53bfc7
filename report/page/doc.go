// Package page writes a report as people look at it: one self-contained
// HTML page (Page.WriteHTML) with the run's metadata, the criteria, the
// charts as inline SVG, every table, and the per-sample view (each call's
// question, messages, answer, gold and score, filtered by arm, model,
// family and outcome with CSS alone); the folder of a report's files
// (WriteDir: Markdown, JSON, HTML and one CSV per table); and the page of a
// select run's policy comparison (WritePolicy). Pages hold no script and
// load nothing: a Content-Security-Policy allows only their own style
// sheet.
package page
