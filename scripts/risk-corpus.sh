#!/bin/sh
# Record the judgements of the tool-runner risk tests into $1 (a folder), e.g.
#   scripts/risk-corpus.sh /tmp/before; (refactor); scripts/risk-corpus.sh /tmp/after; diff -r /tmp/before /tmp/after
set -e
out=${1:?usage: scripts/risk-corpus.sh OUT_DIR}
rm -rf "$out"
cd "$(dirname "$0")/.."
RISK_CORPUS_OUT="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")" npx jest --silent \
  --config scripts/risk-corpus.jest.config.js \
  packages/tool-runner/test/classify packages/tool-runner/test/run-modes.test.ts \
  packages/tool-runner/test/permission-rules.test.ts packages/tool-runner/test/runner \
  packages/tool-runner/test/registry.test.ts packages/tool-runner/test/untrusted-repo.test.ts
