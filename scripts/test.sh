#!/usr/bin/env bash
# npm test: the whole check, fail-fast, in this order:
#   1. lint (ESLint and Prettier's format check, as `npm run lint` runs them) and 2. type check (tsc --noEmit), all three
#      side by side
#   3. vitest on the embedded database (in-memory PGlite), on this machine's Node: a laptop's setup
#   4. vitest again on production's setup: real PostgreSQL when TEST_DATABASE_URL is set (.ci/run sets it to a
#      throwaway cluster), on Node 24 when NODE24_BIN names its binary (.ci/run installs it). With only one of the two,
#      the pass runs on what there is; with neither, it is skipped. Two passes cover both databases and both Nodes.
#   5. `next build` with Vercel-like variables and an unreachable DATABASE_URL: the build must not need a live
#      database (the other Vercel rules are in tests/platform/vercel.test.ts). The variables are read at run time, not
#      built in (no page is prerendered with them), so this .next/ is also the one `npm start` and the e2e tests serve.
#      It skips Next's own type check (LETTERPRESS_TYPES_CHECKED): step 2 ran the same one.
#   6. npm run test:e2e (Playwright: the browser tests against that build), when package.json has that script
#   7. npm run check:deploy (scripts/check-deploy.ts): the app as it is deployed. Vercel's builder (`vercel build`, with
#      no runtime secret set) and Next's standalone server from that build's traced output alone, copied out of the
#      repository, driven through HTTP. Last, because its build replaces .next/; it skips Next's type check as step 5 does.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
phase_started=$SECONDS
current=""
summary=()
tests_passed=0
tests_failed=0
tests_skipped=0

phase() {
  finish_phase
  current="$1"
  phase_started=$SECONDS
  printf '\n\033[1m==> %s\033[0m\n' "$current"
}
finish_phase() {
  if [ -n "$current" ]; then summary+=("$(printf '%-58s %4ss' "$current" $((SECONDS - phase_started)))"); fi
  current=""
}
on_exit() {
  local code=$?
  [ -n "$current" ] && summary+=("$(printf '%-58s %4ss  FAILED' "$current" $((SECONDS - phase_started)))")
  current=""
  printf '\n\033[1m==> npm test summary\033[0m\n'
  for line in "${summary[@]}"; do echo "  $line"; done
  if [ "$code" -eq 0 ]; then
    echo "  all passed in $((SECONDS - started))s"
  else
    echo "  FAILED (exit $code) after $((SECONDS - started))s"
  fi
  # One plain closing line over every test run, for tools that read it.
  echo "tests: ${tests_passed} passed, ${tests_failed} failed, ${tests_skipped} skipped"
  exit "$code"
}
trap on_exit EXIT

# Runs a test command, keeping its closing count lines (those matching $2) for the summary and adding up their counts:
# Vitest's "Tests  1 failed | 30 passed (31)" (its "Test Files" line is kept but not counted), Playwright's
# "19 passed (1.5m)", "1 failed", "3 did not run" (tests of a serial file after a failure: counted as skipped).
run_counted() {
  local label=$1 pattern=$2 log line count word
  shift 2
  log=$(mktemp)
  set +e
  "$@" 2>&1 | tee "$log"
  local code=${PIPESTATUS[0]}
  set -e
  while IFS= read -r line; do
    summary+=("$(printf '%-10s %s' "$label" "$line")")
    [[ $line == "Test Files"* || $line == "cause: "* ]] && continue
    while read -r count word; do
      case $word in
        passed | flaky) tests_passed=$((tests_passed + count)) ;;
        failed | interrupted) tests_failed=$((tests_failed + count)) ;;
        *) tests_skipped=$((tests_skipped + count)) ;;
      esac
    done < <(grep -oE '[0-9]+ (passed|flaky|failed|interrupted|skipped|did not run)' <<<"$line" || true)
  done < <(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E "$pattern" | sed 's/^ *//')
  rm -f "$log"
  return "$code"
}

VITEST_COUNTS='^ *(Test Files|Tests) '
# Playwright's counts, and tests/e2e/failure-causes.ts's line per failure ("cause: <test> | <its error's first lines>").
PLAYWRIGHT_COUNTS='^  ([0-9]+ (passed|flaky|failed|interrupted|skipped|did not run)( \(.*\))?|cause: .*)$'

vitest_pass() {
  local label=$1
  shift
  run_counted "$label" "$VITEST_COUNTS" "$@" npx vitest run
}

has_script() { node -e 'process.exit(require("./package.json").scripts?.[process.argv[1]] ? 0 : 1)' "$1"; }

# Each is single-threaded; three at once on two cores take about half their sum (ESLint alone is most of it).
phase "Lint, format check and type check, at once (npm run lint, npm run typecheck)"
checks=("ESLint:npx eslint ." "Format check:npx prettier --check ." "Type check:npm run -s typecheck")
pids=()
logs=()
for check in "${checks[@]}"; do
  log=$(mktemp)
  logs+=("$log")
  ${check#*:} >"$log" 2>&1 &
  pids+=($!)
done
checks_failed=0
for i in "${!checks[@]}"; do
  code=0
  wait "${pids[$i]}" || code=$?
  cat "${logs[$i]}"
  rm -f "${logs[$i]}"
  if [ "$code" -eq 0 ]; then echo "${checks[$i]%%:*} passed."; else echo "${checks[$i]%%:*} FAILED."; checks_failed=1; fi
done
[ "$checks_failed" -eq 0 ]

phase "Unit and API tests on the embedded database (PGlite, in memory)"
vitest_pass embedded: env -u TEST_DATABASE_URL -u DATABASE_URL

if [ -n "${TEST_DATABASE_URL:-}${NODE24_BIN:-}" ]; then
  second_pass=(env -u DATABASE_URL)
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    label=postgres
    database="PostgreSQL ($(node -e 'const u = new URL(process.argv[1]); if (u.password) u.password = "***"; console.log(u.toString())' "$TEST_DATABASE_URL"))"
  else
    label=embedded
    database="the embedded database"
    second_pass+=(-u TEST_DATABASE_URL)
  fi
  node_version=$(node --version)
  if [ -n "${NODE24_BIN:-}" ]; then
    node_version=$("$NODE24_BIN" --version)
    second_pass+=(PATH="$(dirname "$NODE24_BIN"):$PATH")
  fi
  phase "Unit and API tests on production's setup: $database, Node $node_version"
  vitest_pass "$label, node ${node_version%%.*}:" "${second_pass[@]}"
else
  echo
  echo "Neither TEST_DATABASE_URL nor NODE24_BIN is set: skipping the pass on production's setup (.ci/run sets both)."
fi

phase "Build (npm run build, Vercel-like: VERCEL=1, preview, unreachable DATABASE_URL)"
env VERCEL=1 VERCEL_ENV=preview \
  VERCEL_URL=letterpress-abc123-acme.vercel.app \
  VERCEL_BRANCH_URL=letterpress-git-feature-acme.vercel.app \
  VERCEL_PROJECT_PRODUCTION_URL=letterpress.example.com \
  DATABASE_URL=postgres://postgres:postgres@127.0.0.1:9/unreachable \
  SESSION_SECRET=ci-session-secret-0123456789abcdef0123456789 \
  CRON_SECRET=ci-cron-secret-0123456789 \
  LETTERPRESS_TYPES_CHECKED=1 \
  npm run -s build

if has_script test:e2e; then
  phase "End-to-end tests (npm run test:e2e)"
  run_counted "e2e:" "$PLAYWRIGHT_COUNTS" npm run -s test:e2e
else
  echo
  echo "No test:e2e script in package.json yet: skipping the end-to-end tests."
fi

phase "Deploy check (npm run check:deploy)"
LETTERPRESS_TYPES_CHECKED=1 npm run -s check:deploy

finish_phase
