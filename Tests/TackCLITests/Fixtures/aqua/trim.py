#!/usr/bin/env python3
"""Writes registry.yaml here: the packages of aqua-registry's registry.yaml (given as the first
argument) that together hold every construct the file uses — each top-level key, each shape of
template and of version constraint, each checksum and override form — and the packages the
tests install. Run it again on a newer registry.yaml to refresh the fixture:
    python3 trim.py /path/to/aqua-registry/registry.yaml
"""
import re, sys, os, yaml

KEEP = {"WebAssembly/binaryen", "hashicorp/terraform", "cli/cli", "koalaman/shellcheck", "mikefarah/yq", "rhysd/actionlint",
        "casey/just", "bufbuild/buf", "golangci/golangci-lint", "helm/helm", "kubernetes/kubectl",
        "protocolbuffers/protobuf/protoc", "tuist/tuist", "jqlang/jq", "BurntSushi/ripgrep"}

def shape(text):
    t = re.sub(r'"[^"]*"', 'S', str(text))
    t = re.sub(r'\[S(, ?S)*,?\s*\]', '[L]', t)
    t = re.sub(r'[A-Za-z0-9_.\-]+', 'W', re.sub(r'\{\{(.*?)\}\}', lambda m: '{{' + m.group(1) + '}}', t))
    return re.sub(r'\s+', ' ', t)

def features(p, where=""):
    out = set()
    for k, v in p.items():
        out.add(where + "key:" + k)
        if isinstance(v, str) and "{{" in v:
            for a in re.findall(r'\{\{(.*?)\}\}', v):
                out.add("tmpl:" + re.sub(r'\s+', ' ', re.sub(r'"[^"]*"', 'S', a)).strip())
        if k == "version_constraint":
            out.add("expr:" + shape(v))
        if k in ("format",):
            out.add("format:" + str(v))
        if k == "checksum" and isinstance(v, dict):
            out.add("checksum:" + ",".join(sorted("%s=%s" % (a, b) for a, b in v.items() if a in ("type", "file_format", "algorithm", "enabled"))))
            for ck in v: out.add("checksumkey:" + ck)
            for ck in ("asset", "url"):
                if isinstance(v.get(ck), str):
                    for a in re.findall(r'\{\{(.*?)\}\}', v[ck]):
                        out.add("tmpl:" + re.sub(r'\s+', ' ', re.sub(r'"[^"]*"', 'S', a)).strip())
        if k == "supported_envs":
            for e in v: out.add("env:" + str(e))
        if k == "files":
            for f in v or []:
                for fk, fv in f.items():
                    out.add("filekey:" + fk)
                    if isinstance(fv, str):
                        for a in re.findall(r'\{\{(.*?)\}\}', fv):
                            out.add("tmpl:" + re.sub(r'\s+', ' ', re.sub(r'"[^"]*"', 'S', a)).strip())
        if k == "overrides":
            for o in v or []:
                out |= features(o, "override.")
        if k == "version_overrides":
            for o in v or []:
                out |= features(o, "version_override.")
    return out

def name(p):
    return p.get("name") or "%s/%s" % (p.get("repo_owner"), p.get("repo_name"))

doc = yaml.safe_load(open(sys.argv[1]))
packages = doc["packages"]
chosen, seen = [], set()
for p in packages:
    if name(p) in KEEP:
        chosen.append(p); seen |= features(p)
for p in sorted(packages, key=lambda p: -len(features(p))):
    f = features(p)
    if f - seen and p not in chosen:
        chosen.append(p); seen |= f
# The chosen packages' own text, as registry.yaml writes it (anchors and aliases kept).
text = open(sys.argv[1]).read()
starts = [m.start() for m in re.finditer(r'^  - ', text, re.M)]
blocks = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
assert len(blocks) == len(packages), (len(blocks), len(packages))
wanted = {id(p) for p in chosen}
kept = [block for block, p in zip(blocks, packages) if id(p) in wanted]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "registry.yaml"), "w") as out:
    out.write("# %d of aqua-registry's %d packages, holding every construct its registry.yaml uses\n" % (len(kept), len(packages)))
    out.write("# (made by trim.py from aquaproj/aqua-registry; MIT License, Copyright (c) 2021 Shunsuke Suzuki)\n")
    out.write("packages:\n")
    for block in kept:
        out.write(block if block.endswith("\n") else block + "\n")
print(len(kept), "packages")
