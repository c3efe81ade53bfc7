package page

import (
	"html/template"
	"io"
)

// The report pages are rendered with html/template, so every value is
// escaped for where it lands (text, attribute, URL) by construction. Only
// two kinds of value are trusted as they are: the style sheets (ours,
// template.CSS, hashed into the page's Content-Security-Policy) and the
// charts' SVG (template.HTML, written by package chart, which escapes its
// own text). The markup is XHTML-compatible: the tests read the pages as
// strict XML.
const pageTemplates = `
{{define "head" -}}
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head>
<body>
{{end}}

{{define "table" -}}
<h2 id="table-{{.Name}}">{{.Title}}</h2>
{{if and (not .Rows) .Note -}}
<p class="note">{{.Note}}</p>
{{else -}}
<table class="data">
<tr class="head">{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td data-label="{{.Label}}"{{if .Num}} class="num"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end -}}
</table>
{{end -}}
{{end}}

{{define "criteria" -}}
<section id="criteria">
<h2>Pre-registered criteria</h2>
<table class="data">
<tr class="head"><th>criterion</th><th>kind</th><th>outcome</th><th>description</th><th>figures</th></tr>
{{range . -}}
<tr><td data-label="criterion">{{range .Indent}}&#160;&#160;{{end}}{{.ID}}</td><td data-label="kind">{{.Kind}}</td><td data-label="outcome" class="{{.Class}}">{{.Outcome}}</td><td data-label="description">{{.Description}}</td><td data-label="figures">{{range $i, $f := .Figures}}{{if $i}}<br/>{{end}}{{$f}}{{end}}</td></tr>
{{end -}}
</table>
</section>
{{end}}

{{define "meta" -}}
<dl class="meta">
{{range .}}<dt>{{.Key}}</dt><dd>{{.Value}}</dd>
{{end -}}
</dl>
{{end}}

{{define "summary" -}}
<section id="summary">
<h2>Summary</h2>
{{template "meta" .Items -}}
{{if .OutOfDesign -}}
<div class="problems" role="alert"><p><strong>Error: {{.OutOfDesignCount}} record(s) of {{.AnswersFile}} are not calls of the run's design; none is counted.</strong></p>
<ul>
{{range .OutOfDesign}}<li><code>{{.}}</code></li>
{{end -}}
{{if .MoreOutOfDesign}}<li>… and {{.MoreOutOfDesign}} more</li>
{{end -}}
</ul></div>
{{end -}}
{{range .SkippedLines}}<p class="note">skipped: {{.}}</p>
{{end -}}
</section>
{{end}}

{{define "runmeta" -}}
<section id="run">
<h2>Run</h2>
{{template "meta" .Items -}}
<h3>Models</h3>
<table class="data">
<tr class="head"><th>model</th><th>model sent</th><th>tokenizer</th><th>endpoint</th><th>extra body</th></tr>
{{range .Models}}<tr><td data-label="model">{{.Name}}</td><td data-label="model sent">{{.Model}}</td><td data-label="tokenizer">{{.Tokenizer}}</td><td data-label="endpoint">{{.Endpoint}}</td><td data-label="extra body"><code>{{.Extra}}</code></td></tr>
{{end -}}
</table>
<h3>Arms</h3>
<table class="data">
<tr class="head"><th>arm</th><th>format</th><th>options</th><th>format name hidden</th><th>ordering</th><th>budget</th></tr>
{{range .Arms}}<tr><td data-label="arm">{{.Name}}</td><td data-label="format">{{.Format}}</td><td data-label="options">{{.Options}}</td><td data-label="format name hidden">{{.Hide}}</td><td data-label="ordering">{{.Ordering}}</td><td data-label="budget">{{.Budget}}</td></tr>
{{end -}}
</table>
<details class="inputs"><summary><h3>Inputs: {{len .Contexts}} contexts with their SHA-1s</h3></summary>
<table class="data">
<tr class="head"><th>graph</th><th>arm</th><th>graph SHA-1</th><th>context SHA-1</th><th>file</th></tr>
{{range .Contexts}}<tr><td data-label="graph">{{.Graph}}</td><td data-label="arm">{{.Arm}}</td><td data-label="graph SHA-1"><code>{{.GraphSHA1}}</code></td><td data-label="context SHA-1"><code>{{.SHA1}}</code></td><td data-label="file">{{.File}}</td></tr>
{{end -}}
</table>
</details>
</section>
{{end}}

{{define "text" -}}
{{if .Cut}}<p class="note">cut: the first {{.Shown}} of {{.Size}} bytes are shown; the whole text is on line {{.Line}} of {{.File}}</p>{{end}}<pre>{{.Text}}</pre>
{{- end}}

{{define "fieldset" -}}
<fieldset><legend>{{.Legend}}</legend>{{range .Boxes}}<label><input type="checkbox" id="{{.ID}}" checked="checked"/> {{.Value}} <span class="tag">({{.Count}})</span></label>{{end}}</fieldset>
{{end}}

{{define "samples" -}}
<section id="samples">
<h2>Answers</h2>
<div class="filters" role="group" aria-label="Filter the answers">
{{range .Fieldsets}}{{template "fieldset" .}}{{end -}}
</div>
<div class="sample-list">
{{range .Samples -}}
<details class="sample {{.Outcome}} arm-{{.Arm}} model-{{.Model}} family-{{.Family}}">
<summary><span class="verdict">{{.Outcome}}</span><span class="tag">arm {{.S.Arm}}</span><span class="tag">model {{.S.Model}}</span><span class="tag">{{.S.Family}}</span><span class="tag">{{.S.QuestionID}} · trial {{.S.Trial}}</span><span class="q">{{.S.Question}}</span><span class="ans">{{.Brief}}</span></summary>
<dl class="meta">
{{range .Items}}<dt>{{.Key}}</dt><dd>{{if .Answer}}{{template "text" .Answer}}{{else}}{{.Value}}{{end}}</dd>
{{end -}}
</dl>
<div class="messages">
{{range .Messages}}<div class="msg"><div class="role">{{.Role}}</div><pre>{{.Before}}
{{- with .Ref}}{{if .Inline}}<a class="ctx-ref" href="#ctx-{{.SHA1}}">[context {{.Name}}: {{.Size}} bytes, SHA-1 {{.SHA1}}; shown once under Contexts]</a>
{{- else}}<span class="ctx-ref">[context {{.Name}}: {{.Size}} bytes, SHA-1 {{.SHA1}}; not embedded (the page holds at most {{.MaxMB}} MB of contexts): {{if .Link}}<a href="{{.Link}}">{{.File}}</a>{{else}}{{.File}} in the run folder{{end}}]</span>
{{- end}}{{.After}}{{end}}</pre></div>
{{end -}}
</div>
</details>
{{end -}}
</div>
<p class="count" role="status"><span class="count-n"></span> of {{.Shown}} answers shown; the page holds {{.Shown}} of the run's {{.Total}} calls ({{.How}}). Every call is in {{.AnswersFile}} and answers.csv.</p>
</section>
{{end}}

{{define "contexts" -}}
<section id="contexts">
<h2>Contexts</h2>
<p>The data each arm sent, once per context (folded; a context link of an answer unfolds it); the answers above refer to them.</p>
{{range . -}}
<details class="context"><summary><h3>{{.Name}} ({{.Format}}): {{.Size}} bytes, SHA-1 <code>{{.SHA1}}</code></h3></summary><div id="ctx-{{.SHA1}}">{{if .Cut}}<p class="note">The first {{.Shown}} bytes are shown; the whole text is {{.File}} in the run folder.</p>{{end}}<pre>{{.Text}}</pre></div></details>
{{end -}}
</section>
{{end}}

{{define "page" -}}
{{template "head" .Head -}}
<header>
<h1>{{.Head.Title}}</h1>
<nav aria-label="Sections">{{range $i, $l := .Links}}{{if $i}} {{end}}<a href="#{{$l.ID}}">{{$l.Text}}</a>{{end}}</nav>
</header>
<main>
{{with .Summary}}{{template "summary" .}}{{end -}}
{{with .Criteria}}{{template "criteria" .}}{{end -}}
{{if .Charts -}}
<section id="charts">
<h2>Charts</h2>
<div class="charts">
{{range .Charts}}<figure id="chart-{{.Name}}">
{{.SVG}}</figure>
{{end -}}
</div>
</section>
{{end -}}
<section id="tables">
{{range .Tables}}{{template "table" .}}{{end -}}
</section>
{{with .Samples}}{{template "samples" .}}{{end -}}
{{with .RunMeta}}{{template "runmeta" .}}{{end -}}
{{if .Samples}}{{template "contexts" .Contexts}}{{end -}}
</main>
</body>
</html>
{{end}}

{{define "policy" -}}
{{template "head" .Head -}}
<h1>{{.Head.Title}}</h1>
<figure id="chart-policies">
{{.Chart}}</figure>
{{range .Tables}}{{template "table" .}}{{end -}}
</body>
</html>
{{end}}
`

// templates holds the parsed page templates: read-only after parsing, and
// safe for concurrent use.
var templates = template.Must(template.New("page").Parse(pageTemplates))

// render executes the named template with data into w.
func render(w io.Writer, name string, data any) error {
	return templates.ExecuteTemplate(w, name, data)
}
