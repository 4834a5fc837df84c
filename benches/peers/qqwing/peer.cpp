// QQWing 1.3.4 (Debian's libqqwing-dev), the C++ peer Bezzel's sudoku is measured against:
// solve + prove unique (count up to two solutions), one thread. Not bit-parallel: QQWing keeps
// one int per (cell, value) and applies singles, hidden singles and pairs before it guesses.
//
//   peer FILE               times the counts; prints the summary line below on stderr
//   peer --solutions FILE   prints one answer per puzzle on stdout (the solution, `no solution`
//                           or `multiple solutions`, as Bezzel's sudoku does), then the summary
//   peer --generate N SEED  prints N new puzzles (QQWing's generator, no symmetry, srand(SEED)),
//                           each as `PUZZLE GUESSES BACKTRACKS` where GUESSES and BACKTRACKS add
//                           up QQWing's own counts over 8 solves in shuffled orders: a hardness
//                           measure from QQWing, not from Bezzel
//
// FILE: one 9x9 puzzle per line, 81 characters, 1-9 given, `.` or `0` empty, `#` comments,
// CR LF accepted. Summary: `puzzles: P, unique: U, multiple: M, no solution: N, time: T s`,
// where T covers only the loop of counts (reading and parsing are outside it, as in the
// `sudoku` crate's peer and Bezzel's `search time`). After the timing every puzzle QQWing
// counted once is solved again and its solution checked here, independently of QQWing (every
// row, column and box a permutation of 1-9, every given kept); any failure exits 1.
#include <qqwing.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using Grid = std::vector<int>;  // 81 cells, 0 for empty

static bool valid_solution(const int* s, const Grid& givens) {
    for (int i = 0; i < 81; i++) {
        if (s[i] < 1 || s[i] > 9 || (givens[i] != 0 && givens[i] != s[i])) return false;
    }
    for (int u = 0; u < 9; u++) {
        unsigned row = 0, col = 0, box = 0;
        for (int k = 0; k < 9; k++) {
            row |= 1u << s[u * 9 + k];
            col |= 1u << s[k * 9 + u];
            box |= 1u << s[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
        }
        if (row != 0x3FE || col != 0x3FE || box != 0x3FE) return false;
    }
    return true;
}

static int read_puzzles(const char* path, std::vector<Grid>& puzzles) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "qqwing-peer: %s: cannot read\n", path);
        return 2;
    }
    std::string line;
    for (int number = 1; std::getline(in, line); number++) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (line.size() != 81) {
            std::fprintf(stderr, "qqwing-peer: %s:%d: %zu cells, expected 81\n", path, number,
                         line.size());
            return 2;
        }
        Grid g(81);
        for (int i = 0; i < 81; i++) {
            char c = line[i];
            if (c >= '1' && c <= '9') {
                g[i] = c - '0';
            } else if (c == '.' || c == '0') {
                g[i] = 0;
            } else {
                std::fprintf(stderr, "qqwing-peer: %s:%d: bad cell '%c'\n", path, number, c);
                return 2;
            }
        }
        puzzles.push_back(g);
    }
    return 0;
}

// 0, 1 or 2 (two or more): QQWing's countSolutionsLimited, after setPuzzle (which refuses
// givens that clash, a puzzle without solution).
static int count(qqwing::SudokuBoard& board, Grid& g) {
    if (!board.setPuzzle(g.data())) return 0;
    return board.countSolutionsLimited();
}

static int generate(long n, unsigned seed) {
    std::srand(seed);
    qqwing::SudokuBoard board;
    board.setRecordHistory(true);
    for (long made = 0; made < n; made++) {
        board.generatePuzzleSymmetry(qqwing::SudokuBoard::NONE);
        Grid g(board.getPuzzle(), board.getPuzzle() + 81);
        long guesses = 0, backtracks = 0;
        for (int k = 0; k < 8; k++) {  // solve() shuffles its cell and value orders each time
            board.setPuzzle(g.data());
            if (!board.solve() || !valid_solution(board.getSolution(), g)) {
                std::fprintf(stderr, "qqwing-peer: generated puzzle %ld does not solve\n", made);
                return 1;
            }
            guesses += board.getGuessCount();
            backtracks += board.getBacktrackCount();
        }
        for (int i = 0; i < 81; i++) std::putchar(g[i] ? '0' + g[i] : '.');
        std::printf(" %ld %ld\n", guesses, backtracks);
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 4 && std::strcmp(argv[1], "--generate") == 0) {
        return generate(std::atol(argv[2]), unsigned(std::strtoul(argv[3], nullptr, 10)));
    }
    bool print = argc == 3 && std::strcmp(argv[1], "--solutions") == 0;
    if (argc != 2 && !print) {
        std::fprintf(stderr, "usage: qqwing-peer [--solutions] FILE | --generate N SEED\n");
        return 2;
    }
    std::vector<Grid> puzzles;
    if (int rc = read_puzzles(argv[argc - 1], puzzles)) return rc;

    qqwing::SudokuBoard board;
    std::vector<int> counts(puzzles.size());
    auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < puzzles.size(); i++) counts[i] = count(board, puzzles[i]);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    long unique = 0, multiple = 0, none = 0;
    std::srand(1);
    for (size_t i = 0; i < puzzles.size(); i++) {
        int c = counts[i];
        none += c == 0;
        unique += c == 1;
        multiple += c >= 2;
        bool solved = board.setPuzzle(puzzles[i].data()) && board.solve();
        if (c >= 1 && (!solved || !valid_solution(board.getSolution(), puzzles[i]))) {
            std::fprintf(stderr, "qqwing-peer: puzzle %zu: counted %d, but no valid solution\n",
                         i + 1, c);
            return 1;
        }
        if (c == 0 && solved) {
            std::fprintf(stderr, "qqwing-peer: puzzle %zu: counted 0, but solved\n", i + 1);
            return 1;
        }
        if (print) {
            if (c == 0) {
                std::puts("no solution");
            } else if (c >= 2) {
                std::puts("multiple solutions");
            } else {
                char out[82];
                for (int k = 0; k < 81; k++) out[k] = char('0' + board.getSolution()[k]);
                out[81] = 0;
                std::puts(out);
            }
        }
    }
    std::fprintf(stderr,
                 "puzzles: %zu, unique: %ld, multiple: %ld, no solution: %ld, time: %.6f s\n",
                 puzzles.size(), unique, multiple, none, secs);
    return 0;
}
