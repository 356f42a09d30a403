#!/bin/bash
# usage: gold.sh CASEDIR  — runs ytt and writes expected.* goldens
cd "$1" || exit 1
rm -f expected.*
args=()
for f in $(ls | grep -E '\.ya?ml$' | grep -v '^expected' | sort); do args+=(-f "$f"); done
[ -d lib ] && args+=(-f lib)
if /work/tools/bin/ytt "${args[@]}" --data-values-inspect -o json > expected.json 2> expected.err; then
  rm expected.err
  /work/tools/bin/ytt "${args[@]}" --data-values-inspect > expected.yaml
else
  rm expected.json
fi
if grep -lq 'data/values-schema' *.yaml 2>/dev/null; then
  /work/tools/bin/ytt "${args[@]}" --data-values-schema-inspect -o openapi-v3 > expected.openapi.yaml 2>/dev/null || rm -f expected.openapi.yaml
fi
