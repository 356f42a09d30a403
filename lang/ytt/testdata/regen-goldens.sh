#!/bin/bash
# usage: regen-goldens.sh CASEDIR — runs ytt v0.45.9 ($YTT, default: ytt on PATH) on a corpus case and writes its expected.* goldens
cd "$1" || exit 1
rm -f expected.*
args=()
for f in $(ls | grep -E '\.ya?ml$' | grep -v '^expected' | sort); do args+=(-f "$f"); done
[ -d lib ] && args+=(-f lib)
if "${YTT:-ytt}" "${args[@]}" --data-values-inspect -o json > expected.json 2> expected.err; then
  rm expected.err
  "${YTT:-ytt}" "${args[@]}" --data-values-inspect > expected.yaml
else
  rm expected.json
fi
if grep -lq 'data/values-schema' *.yaml 2>/dev/null; then
  "${YTT:-ytt}" "${args[@]}" --data-values-schema-inspect -o openapi-v3 > expected.openapi.yaml 2>/dev/null || rm -f expected.openapi.yaml
fi
