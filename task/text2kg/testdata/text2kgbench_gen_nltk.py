#!/usr/bin/python3
"""Writes the NLTK reference files of the Text2KGBench scorer tests.

Run with Debian 12's python3-nltk 3.8 (apt-get install python3-nltk), from
the repository root:

    /usr/bin/python3 task/text2kg/testdata/text2kgbench_gen_nltk.py ../shared

It needs no NLTK data: NLTKWordTokenizer (the tokenizer word_tokenize applies
to each sentence) and PorterStemmer (NLTK_EXTENSIONS mode) are pure code.
Punkt's sentence splitter needs the punkt model, which is not available
offline, so the tokenizer reference covers single sentences only.
"""
import glob
import json
import os
import re
import sys

import nltk
from nltk.stem import PorterStemmer
from nltk.tokenize import NLTKWordTokenizer

shared = sys.argv[1]
out_dir = os.path.dirname(os.path.abspath(__file__))
texts = []

sample = os.path.join(shared, "data", "text2kgbench", "sample")
for line in open(os.path.join(sample, "ground_truth_sample.jsonl"), encoding="utf-8"):
    d = json.loads(line)
    texts.append(d["sent"])
    for t in d["triples"]:
        texts += [t["sub"], t["obj"]]
for line in open(os.path.join(sample, "vicuna13b_responses_sample.jsonl"), encoding="utf-8"):
    d = json.loads(line)
    for t in d["triples"]:
        texts += [t[0], t[2]]
for line in open(os.path.join(sample, "prompts_sample.jsonl"), encoding="utf-8"):
    d = json.loads(line)
    m = re.search(r"Example Sentence: (.*)\n", d["prompt"])
    texts.append(m.group(1))
for path in sorted(glob.glob(os.path.join(shared, "data", "text2kgbench", "ontologies", "*.json"))):
    o = json.load(open(path, encoding="utf-8"))
    texts.append(" ".join(c["label"] for c in o["concepts"]))
# Every 10th entity label of the Countries graph (multilingual names).
ents = os.path.join(shared, "data", "kgllmbench", "countries", "entities.tsv")
for i, line in enumerate(open(ents, encoding="utf-8")):
    if i > 0 and i % 10 == 0:
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 3:
            texts.append(parts[2])

# Lines of the shared tokenizer corpus (prose, contractions, quotes, marks).
for path in sorted(glob.glob(os.path.join(shared, "tokenizers", "corpus", "*"))):
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except (UnicodeDecodeError, IsADirectoryError):
        continue
    texts += [l for l in lines[:200] if 0 < len(l) < 400]

seen = set()
tok = NLTKWordTokenizer()
with open(os.path.join(out_dir, "text2kgbench_treebank_nltk38.jsonl"), "w", encoding="utf-8") as f:
    for t in texts:
        if t in seen:
            continue
        seen.add(t)
        f.write(json.dumps({"text": t, "tokens": tok.tokenize(t)}, ensure_ascii=False) + "\n")

ps = PorterStemmer()
words = set()
for t in texts:
    words.update(tok.tokenize(t))
with open(os.path.join(out_dir, "text2kgbench_porter_nltk38.tsv"), "w", encoding="utf-8") as f:
    f.write("# NLTK %s PorterStemmer().stem(word)\n" % nltk.__version__)
    for w in sorted(words):
        if "\t" in w or "\n" in w:
            continue
        f.write("%s\t%s\n" % (w, ps.stem(w)))
