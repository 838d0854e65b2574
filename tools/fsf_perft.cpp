// Fast perft driver over Fairy-Stockfish, built by tools/setup_venv.sh from
// the engine sources shipped in the pyffish sdist (same code as the pyffish
// Python module, same initialisation as pyffish.cpp).  The pyffish Python API
// re-initialises the piece bitboards on every call (~2 ms), far too slow for
// perft, hence this driver.  Move generation is FSF's MoveList<LEGAL>; the
// only thing added is the filter that pyffish users must apply themselves:
// FSF lists pawn-drop mates (uchifuzume) as legal moves, so a pawn drop that
// gives check and leaves the opponent without a legal move is not counted.
//
// Usage: fsf_perft [variants.ini]
//   stdin lines:  variant<TAB>fen<TAB>depth
//   stdout lines: nodes(1) nodes(2) ... nodes(depth)   (or "error ...")

#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bitboard.h"
#include "movegen.h"
#include "piece.h"
#include "position.h"
#include "psqt.h"
#include "search.h"
#include "thread.h"
#include "uci.h"
#include "variant.h"
#include "apiutil.h"

using namespace Stockfish;

namespace Stockfish { namespace UCI { void init_variant(const Variant* v); } }

static bool is_drop_mate(Position& pos, Move m) {
    if (type_of(m) != DROP || dropped_piece_type(m) != SHOGI_PAWN)
        return false;
    if (!pos.gives_check(m))
        return false;
    StateInfo st;
    pos.do_move(m, st);
    bool mate = MoveList<LEGAL>(pos).size() == 0;
    pos.undo_move(m);
    return mate;
}

static void perft(Position& pos, int d, int depth, std::vector<uint64_t>& counts) {
    for (const auto& m : MoveList<LEGAL>(pos)) {
        if (is_drop_mate(pos, m))
            continue;
        counts[d]++;
        if (d < depth) {
            StateInfo st;
            pos.do_move(m, st);
            perft(pos, d + 1, depth, counts);
            pos.undo_move(m);
        }
    }
}

int main(int argc, char* argv[]) {
    pieceMap.init();
    variants.init();
    UCI::init(Options);
    PSQT::init(variants.find(Options["UCI_Variant"])->second);
    Bitboards::init();
    Position::init();
    Bitbases::init();
    Search::init();
    Threads.set(1);
    Search::clear();

    if (argc > 1) {
        std::ifstream f(argv[1]);
        if (!f) {
            std::cerr << "cannot read " << argv[1] << std::endl;
            return 2;
        }
        variants.parse_istream<false>(f);
        Options["UCI_Variant"].set_combo(variants.get_keys());
    }

    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty())
            continue;
        std::istringstream ls(line);
        std::string variant, fen, depthStr;
        std::getline(ls, variant, '\t');
        std::getline(ls, fen, '\t');
        std::getline(ls, depthStr, '\t');
        auto it = variants.find(variant);
        if (it == variants.end()) {
            std::cout << "error unknown variant " << variant << std::endl;
            continue;
        }
        const Variant* v = it->second;
        if (FEN::validate_fen(fen, v, false) != FEN::FEN_OK) {
            std::cout << "error invalid fen" << std::endl;
            continue;
        }
        int depth = std::stoi(depthStr);
        UCI::init_variant(v);
        StateListPtr states(new std::deque<StateInfo>(1));
        Position pos;
        pos.set(v, fen, false, &states->back(), Threads.main());
        std::vector<uint64_t> counts(depth + 1, 0);
        if (depth > 0)
            perft(pos, 1, depth, counts);
        for (int d = 1; d <= depth; d++)
            std::cout << counts[d] << (d < depth ? " " : "");
        std::cout << std::endl;
    }
    Threads.set(0);
    return 0;
}
