#!/usr/bin/env bash
# Engine-vs-itself games through cshogi's match runner, with every engine's
# USI dialogue logged (RUST_LOG=debug, millisecond timestamps) so that the
# time from each `go` to its `bestmove` can be checked afterwards.
#
#   usi-scripts/selfplay.sh [GAMES] [BYOYOMI_MS] [extra cshogi.cli args...]
#
# Needs target/venv with cshogi (tools/setup_venv.sh makes it) and a release
# build. Results go to target/selfplay/: match.txt (cshogi's output),
# engine-*.log (dialogues) and timing.txt (go -> bestmove times).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${1:-50}"
BYOYOMI="${2:-100}"
shift $(( $# > 2 ? 2 : $# ))
OUT=target/selfplay
rm -rf "$OUT"
mkdir -p "$OUT"
# A private copy: a rebuild during the match must not swap the binary.
cp target/release/fukayomi "$OUT/fukayomi"
cat > "$OUT/engine.sh" <<SH
#!/bin/sh
exec env RUST_LOG=fukayomi=debug "$PWD/$OUT/fukayomi" 2>>"$PWD/$OUT/engine-\$\$.log"
SH
chmod +x "$OUT/engine.sh"
set -x
target/venv/bin/python -m cshogi.cli "$PWD/$OUT/engine.sh" "$PWD/$OUT/engine.sh" \
    --name1 fukayomi-a --name2 fukayomi-b \
    --games "$GAMES" --byoyomi "$BYOYOMI" "$@" | tee "$OUT/match.txt"
set +x
{
target/venv/bin/python tools/dialogue_times.py "$OUT/engine-*.log" "$BYOYOMI"
target/venv/bin/python - "$OUT" <<'PY'
import sys
out = sys.argv[1]
results = [l.strip() for l in open(out + '/match.txt', encoding='utf-8', errors='replace') if l.startswith('まで')]
print(f'games: {len(results)}; illegal-move losses (反則): {sum("反則" in r for r in results)}; '
      f'time losses (切れ負け): {sum("切れ負け" in r for r in results)}; '
      f'draws (千日手/持将棋): {sum("千日手" in r or "持将棋" in r for r in results)}; '
      f'declarations (入玉宣言): {sum("入玉宣言" in r for r in results)}')
PY
} | tee "$OUT/timing.txt"
