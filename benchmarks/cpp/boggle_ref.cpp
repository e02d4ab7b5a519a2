// Same-run C++ baseline for benchmarks/boggle_bench.py: a plain-trie Boggle scorer.
//
// The design of the best public C++ scorer (issue 12): a trie with a 26-entry child
// table per node (one load per step), de-duplication by stamping the node where a word
// ends with a per-board counter (never cleared), neighbour lists fixed per board size at
// compile time (template on rows x cols), and the used cells as a bit mask.
//
//   g++ -O3 -march=native -o boggle_ref boggle_ref.cpp
//   boggle_ref WORDLIST ROWS COLS BOARDS.u8
//
// WORDLIST: one word a line; Boggle words are a-z only, 3+ letters, every q followed by
// u (the "Qu" face is letter 'q', and "qu" counts two letters). BOARDS.u8: raw uint8
// letter indices (0 = 'a', 16 = Qu), ROWS*COLS bytes per board. Prints one line:
//   boards=N total_score=S wall_s=W cpu_s=C
// (the trie is built before the clocks start).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

const int kPoints[] = {0, 0, 0, 1, 1, 2, 3, 5, 11};  // by length; 8+ letters: 11

int Points(int length) { return kPoints[length < 8 ? length : 8]; }

struct Trie {
  Trie* children[26] = {};
  uint32_t mark = 0;
  int points = -1;  // >= 0 when a word ends here
};

// "qu" -> 'q'; empty when the word cannot be on a board.
std::string BoggleKey(const std::string& word) {
  std::string key;
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c < 'a' || c > 'z') return "";
    if (c == 'q') {
      if (i + 1 >= word.size() || word[i + 1] != 'u') return "";
      ++i;
    }
    key += c;
  }
  return word.size() >= 3 ? key : "";
}

Trie* BuildTrie(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "boggle_ref: cannot read " << path << "\n";
    std::exit(2);
  }
  Trie* root = new Trie;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    std::string key = BoggleKey(line);
    if (key.empty()) continue;
    Trie* t = root;
    for (char c : key) {
      Trie*& child = t->children[c - 'a'];
      if (!child) child = new Trie;
      t = child;
    }
    t->points = Points(static_cast<int>(line.size()));
  }
  return root;
}

template <int R, int C>
struct Neighbours {
  int count[R * C];
  int cell[R * C][8];
  constexpr Neighbours() : count(), cell() {
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        int i = r * C + c;
        for (int dr = -1; dr <= 1; ++dr)
          for (int dc = -1; dc <= 1; ++dc) {
            int rr = r + dr, cc = c + dc;
            if ((dr || dc) && rr >= 0 && rr < R && cc >= 0 && cc < C) cell[i][count[i]++] = rr * C + cc;
          }
      }
  }
};

template <int R, int C>
class Boggler {
 public:
  explicit Boggler(Trie* root) : root_(root) {}

  int64_t Score(const uint8_t* board) {
    board_ = board;
    score_ = 0;
    used_ = 0;
    ++stamp_;
    for (int i = 0; i < R * C; ++i) {
      Trie* t = root_->children[board_[i]];
      if (t) Walk(i, t);
    }
    return score_;
  }

 private:
  void Walk(int i, Trie* t) {
    used_ ^= 1u << i;
    if (t->points >= 0 && t->mark != stamp_) {
      t->mark = stamp_;
      score_ += t->points;
    }
    const int n = kNbr.count[i];
    for (int k = 0; k < n; ++k) {
      const int j = kNbr.cell[i][k];
      if (used_ & (1u << j)) continue;
      Trie* child = t->children[board_[j]];
      if (child) Walk(j, child);
    }
    used_ ^= 1u << i;
  }

  static constexpr Neighbours<R, C> kNbr{};
  Trie* root_;
  const uint8_t* board_ = nullptr;
  uint64_t used_ = 0;
  uint32_t stamp_ = 0;
  int64_t score_ = 0;
};

template <int R, int C>
int Run(Trie* root, const std::vector<uint8_t>& boards) {
  const size_t cells = R * C, n = boards.size() / cells;
  Boggler<R, C> boggler(root);
  auto wall0 = std::chrono::steady_clock::now();
  std::clock_t cpu0 = std::clock();
  int64_t total = 0;
  for (size_t b = 0; b < n; ++b) total += boggler.Score(&boards[b * cells]);
  double cpu = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::printf("boards=%zu total_score=%lld wall_s=%.6f cpu_s=%.6f\n", n, static_cast<long long>(total), wall, cpu);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: boggle_ref WORDLIST ROWS COLS BOARDS.u8\n";
    return 2;
  }
  Trie* root = BuildTrie(argv[1]);
  const int rows = std::atoi(argv[2]), cols = std::atoi(argv[3]);
  std::ifstream in(argv[4], std::ios::binary);
  std::vector<uint8_t> boards((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (uint8_t x : boards)
    if (x >= 26) {
      std::cerr << "boggle_ref: letter index " << int(x) << " >= 26\n";
      return 2;
    }
  if (rows == 4 && cols == 4) return Run<4, 4>(root, boards);
  if (rows == 5 && cols == 5) return Run<5, 5>(root, boards);
  if (rows == 3 && cols == 3) return Run<3, 3>(root, boards);
  if (rows == 3 && cols == 4) return Run<3, 4>(root, boards);
  std::cerr << "boggle_ref: shape " << rows << "x" << cols << " not compiled in (3x3, 3x4, 4x4, 5x5)\n";
  return 2;
}
