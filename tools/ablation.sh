#!/usr/bin/env bash
# Issue 6's technique table: each technique (or small group) switched off in
# a variant of HEAD, played against HEAD in self-play at 100 ms byoyomi
# (the built-in network on both sides), colours swapped, two games at a
# time. 200 games a variant take about 18 minutes on the two cores.
# CONC=1 plays one game at a time (about 40 minutes a variant), leaving a
# core for other work.
#   tools/ablation.sh build              # the variants into target/bins/abl-*
#   tools/ablation.sh run [GAMES] [NAME...]  # the matches (default: all, 200)
# Results: target/matches/abl-NAME.out (match.py's summary on the last lines).
# The `nullmove` variant also loses the mate-threat extension (a node whose
# null move is mated searches deeper): it measures the two together.
set -euo pipefail
cd "$(dirname "$0")/.."
S=src/search/search.rs
M=src/search/movepick.rs
# Builds target/bins/abl-NAME: HEAD with the technique NAME switched off.
build() {
  local off='const \1: i32 = -1;' b="tools/build_variant.sh abl-$1"
  case $1 in
    nullmove) $b "$S" 's/^const \(NMP_MIN_DEPTH\): i32 = 3;/const \1: i32 = 10_000;/' ;;
    rfp-razor) $b "$S" "s/^const \\(RFP_DEPTH\\): i32 = 7;/$off/" "$S" "s/^const \\(RAZOR_DEPTH\\): i32 = 3;/$off/" ;;
    futility-lmp) $b "$S" "s/^const \\(FUTILITY_DEPTH\\): i32 = 7;/$off/" "$S" "s/^const \\(LMP_DEPTH\\): i32 = 8;/$off/" ;;
    see) $b "$S" "s/^const \\(SEE_DEPTH\\): i32 = 8;/$off/" ;;
    iir) $b "$S" 's/^const \(IIR_MIN_DEPTH\): i32 = 4;/const \1: i32 = 10_000;/' ;;
    killers-counter) $b "$M" 's/if m == hints\.\(killers\|counter\)/if false \&\& m == hints.\1/' ;;
    mate-threat) $b "$S" 's/^const \(MATE_THREAT_EXTENSION\): bool = true;/const \1: bool = false;/' ;;
    base) $b ;;
    *) echo "ablation.sh: no variant '$1'" >&2; return 1 ;;
  esac
}
ORDER="nullmove rfp-razor futility-lmp see iir killers-counter mate-threat"
case ${1:-} in
build)
  for name in base $ORDER; do build "$name"; done ;;
run)
  games=200
  if [[ ${2:-} =~ ^[0-9]+$ ]]; then games=$2; shift; fi
  shift
  names=${*:-$ORDER}
  mkdir -p target/matches
  offset=100
  for name in $names; do
    target/venv/bin/python tools/match.py "target/bins/abl-$name" target/bins/abl-base \
      --games "$games" --byoyomi 100 --openings tools/openings/9x9.sfen \
      --concurrency "${CONC:-2}" --offset "$offset" > "target/matches/abl-$name.out" 2>&1
    tail -2 "target/matches/abl-$name.out"
  done ;;
*) echo "usage: tools/ablation.sh build | run [GAMES] [NAME...]" >&2; exit 2 ;;
esac
